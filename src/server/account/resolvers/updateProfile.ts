/** `updateProfile`: the caller's language and email-notification choice. */
import { eq } from 'drizzle-orm';
import { parseLanguage } from '../../../lib/languages.ts';
import { users } from '../../db/schema.ts';
import { badInput } from '../../graphql/errors.ts';
import type { MutationResolvers } from '../types.generated.ts';
import { userShape } from '../userShape.ts';
import { currentUser } from '../users.ts';

export const updateProfile: NonNullable<MutationResolvers['updateProfile']> = async (_parent, args, ctx) => {
  const user = await currentUser(ctx);
  const changes: Partial<typeof users.$inferInsert> = {};
  if (args.language != null) {
    const language = parseLanguage(args.language);
    if (!language || language !== args.language) throw badInput('language must be en, da or nb');
    changes.language = language;
  }
  if (args.emailNotifications != null) changes.emailNotifications = args.emailNotifications;
  if (Object.keys(changes).length === 0) return userShape(user);
  const [updated] = await ctx.db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning();
  return userShape(updated!);
};

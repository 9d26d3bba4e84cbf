/** `alarm(tenancyId, id)`: one of the caller's alarms; anyone else's, or an unknown id, is FORBIDDEN. */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { alarms } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { forbidden } from '../../graphql/errors.ts';
import type { QueryResolvers } from '../types.generated.ts';
import { alarmObjects, idOf, requireTenancy } from './alarmShared.ts';

/** The caller's alarm row on a tenancy they are a member of; FORBIDDEN otherwise. */
export async function ownAlarm(db: Db, userId: number, tenancyId: string, id: string) {
  const tenancy = await requireTenancy(db, userId, tenancyId);
  const [row] = await db
    .select()
    .from(alarms)
    .where(and(eq(alarms.id, idOf(id)), eq(alarms.userId, userId), eq(alarms.tenancyId, tenancy.id)));
  if (!row) throw forbidden();
  return { row, tenancy };
}

export const alarm: NonNullable<QueryResolvers['alarm']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const { row } = await ownAlarm(ctx.db, userId, args.tenancyId, args.id);
  const [object] = await alarmObjects(ctx.db, [row]);
  return object!;
};

/** `notification(tenancyId, id)`: one of the caller's notifications. */
import { requireUserId } from '../../graphql/context.ts';
import type { QueryResolvers } from '../types.generated.ts';
import { notificationObject, ownNotification } from './notificationShared.ts';

export const notification: NonNullable<QueryResolvers['notification']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  return notificationObject(await ownNotification(ctx.db, userId, args.tenancyId, args.id));
};

/**
 * `alarm(tenancyId, id)`: one of the caller's alarms. A tenancy the caller is not a member of is FORBIDDEN (as
 * tenantGraph); on their own tenancy, an unknown, malformed or someone else's alarm id is NOT_FOUND (one answer).
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { alarms } from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { notFound } from '../../graphql/errors.ts';
import type { QueryResolvers } from '../types.generated.ts';
import { alarmObjects, idOrNull, requireTenancy } from './alarmShared.ts';

/** The caller's alarm row on a tenancy they are a member of; FORBIDDEN for the tenancy, NOT_FOUND for the id. */
export async function ownAlarm(db: Db, userId: number, tenancyId: string, id: string) {
  const tenancy = await requireTenancy(db, userId, tenancyId);
  const alarmId = idOrNull(id);
  if (alarmId === null) throw notFound('alarm');
  const [row] = await db
    .select()
    .from(alarms)
    .where(and(eq(alarms.id, alarmId), eq(alarms.userId, userId), eq(alarms.tenancyId, tenancy.id)));
  if (!row) throw notFound('alarm');
  return { row, tenancy };
}

export const alarm: NonNullable<QueryResolvers['alarm']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const { row } = await ownAlarm(ctx.db, userId, args.tenancyId, args.id);
  const [object] = await alarmObjects(ctx.db, [row]);
  return object!;
};

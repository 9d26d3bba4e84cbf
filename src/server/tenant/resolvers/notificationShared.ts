/** Notification rows as GraphQL objects, and the caller's own notification lookup. */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications } from '../../db/schema.ts';
import { notFound } from '../../graphql/errors.ts';
import type { ReportNotice } from '../../reports/notice.ts';
import type { AlarmFrequency, Notification, NotificationKind } from '../types.generated.ts';
import { idOrNull, requireTenancy } from './alarmShared.ts';

type Row = typeof notifications.$inferSelect;
const num = (x: string | null) => (x === null ? null : Number(x));

/** A notification row as the GraphQL type. */
export function notificationObject(n: Row): Notification {
  const details = (n.details ?? {}) as {
    percent?: number | null;
    totals?: { quantity: string; value: string }[];
    report?: ReportNotice;
  };
  return {
    id: String(n.id),
    tenancyId: String(n.tenancyId),
    kind: n.kind.toUpperCase() as NotificationKind,
    alarmId: n.alarmId === null ? null : String(n.alarmId),
    quantity: n.quantity,
    frequency: n.frequency.toUpperCase() as AlarmFrequency,
    periodStart: n.periodStart,
    periodEnd: n.periodEnd,
    value: num(n.value),
    reference: num(n.reference),
    reason: n.reason,
    percent: details.percent ?? null,
    totals: (details.totals ?? []).map((t) => ({ quantity: t.quantity, value: Number(t.value) })),
    reportUrl: details.report ? `/report/${details.report.code}` : null,
    comparison: details.report?.comparison ?? [],
    correctedChangePercent: details.report?.correctedChangePercent ?? null,
    createdAt: n.createdAt.toISOString(),
    read: n.readAt !== null,
  };
}

/** The caller's notification on a tenancy they are a member of; FORBIDDEN for the tenancy, NOT_FOUND for the id. */
export async function ownNotification(db: Db, userId: number, tenancyId: string, id: string): Promise<Row> {
  const tenancy = await requireTenancy(db, userId, tenancyId);
  const notificationId = idOrNull(id);
  if (notificationId === null) throw notFound('notification');
  const [row] = await db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.id, notificationId),
        eq(notifications.userId, userId),
        eq(notifications.tenancyId, tenancy.id),
      ),
    );
  if (!row) throw notFound('notification');
  return row;
}

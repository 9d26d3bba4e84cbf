/**
 * `readoutMinMax` (the nucleus readout query): a meter's first and last register readout within a date range,
 * clipped to the tenancy's dates. The tenancy must be the caller's and the meter must sit on a point of that
 * tenancy's apartment measuring the quantity; anything else is the same FORBIDDEN.
 */
import { and, eq, sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { TIME_ZONE } from '../../../lib/periods.ts';
import { measurementPoints, meters, tenancies, tenancyMembers } from '../../db/schema.ts';
import { queryRows } from '../../db/sql.ts';
import { requireUserId } from '../../graphql/context.ts';
import { badInput, forbidden, parseInput, plainText } from '../../graphql/errors.ts';
import { isoDate, quantityId } from '../consumption/common.ts';
import { MAX_PERIOD_DAYS } from '../consumption/unitData.ts';
import { tenancyAccessOpen } from '../grace.ts';
import type { QueryResolvers } from '../types.generated.ts';

const inputSchema = z.object({
  tenancyId: z.number().int().positive().max(2_147_483_647),
  meterNumber: plainText.trim().min(1).max(100),
  quantity: quantityId,
  fromDate: isoDate,
  toDate: isoDate,
});

const laterDate = (a: Temporal.PlainDate, b: Temporal.PlainDate) =>
  Temporal.PlainDate.compare(a, b) >= 0 ? a : b;
const earlierDate = (a: Temporal.PlainDate, b: Temporal.PlainDate) =>
  Temporal.PlainDate.compare(a, b) <= 0 ? a : b;

/** An instant from SQL epoch milliseconds as ISO 8601 with the Copenhagen offset. */
function localTimestamp(epochMs: string): string {
  return Temporal.Instant.fromEpochMilliseconds(Number(epochMs))
    .toZonedDateTimeISO(TIME_ZONE)
    .toString({ timeZoneName: 'never', smallestUnit: 'second' });
}

export const readoutMinMax: NonNullable<QueryResolvers['readoutMinMax']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const input = parseInput(inputSchema, args);
  const from = Temporal.PlainDate.from(input.fromDate);
  const toExclusive = Temporal.PlainDate.from(input.toDate).add({ days: 1 });
  const days = from.until(toExclusive, { largestUnit: 'days' }).days;
  if (days < 1) throw badInput('fromDate must not be after toDate');
  if (days > MAX_PERIOD_DAYS * 10) throw badInput('Range too long');
  const db = ctx.db;
  // Access first: the tenancy must be one the caller is a member of.
  const [tenancy] = await db
    .select({ apartmentId: tenancies.apartmentId, start: tenancies.start, end: tenancies.end })
    .from(tenancyMembers)
    .innerJoin(tenancies, eq(tenancies.id, tenancyMembers.tenancyId))
    .where(and(eq(tenancyMembers.userId, userId), eq(tenancies.id, input.tenancyId), tenancyAccessOpen));
  if (!tenancy) throw forbidden();
  const [meter] = await db
    .select({ id: meters.id, number: meters.number })
    .from(meters)
    .innerJoin(measurementPoints, eq(measurementPoints.id, meters.measurementPointId))
    .where(
      and(
        eq(meters.number, input.meterNumber),
        eq(measurementPoints.apartmentId, tenancy.apartmentId),
        eq(measurementPoints.quantity, input.quantity),
      ),
    );
  if (!meter) throw forbidden();
  // Only readouts inside the tenancy (the end date is its last day).
  const lo = laterDate(from, Temporal.PlainDate.from(tenancy.start));
  const hi = tenancy.end
    ? earlierDate(toExclusive, Temporal.PlainDate.from(tenancy.end).add({ days: 1 }))
    : toExclusive;
  if (Temporal.PlainDate.compare(lo, hi) >= 0) return null;
  const loTs = lo.toZonedDateTime(TIME_ZONE).toInstant().toString();
  const hiTs = hi.toZonedDateTime(TIME_ZONE).toInstant().toString();
  const [row] = await queryRows<{
    fts: string | null;
    fv: string | null;
    lts: string | null;
    lv: string | null;
  }>(
    db,
    sql`SELECT f.ts AS fts, f.v AS fv, l.ts AS lts, l.v AS lv
        FROM (SELECT (extract(epoch FROM ts) * 1000)::bigint::text AS ts, value::text AS v FROM register_readings
              WHERE meter_id = ${meter.id} AND ts >= ${loTs}::timestamptz AND ts < ${hiTs}::timestamptz
              ORDER BY ts LIMIT 1) f,
             (SELECT (extract(epoch FROM ts) * 1000)::bigint::text AS ts, value::text AS v FROM register_readings
              WHERE meter_id = ${meter.id} AND ts >= ${loTs}::timestamptz AND ts < ${hiTs}::timestamptz
              ORDER BY ts DESC LIMIT 1) l`,
  );
  if (!row?.fts || !row.lts) return null;
  return {
    meterNumber: meter.number,
    quantity: input.quantity,
    firstReadoutTimestamp: localTimestamp(row.fts),
    firstReadoutValue: Number(row.fv),
    lastReadoutTimestamp: localTimestamp(row.lts),
    lastReadoutValue: Number(row.lv),
  };
};

/** What the alarm and notification resolvers share: the tenancy check, input rules and row shapes. */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { inLimitRange, limitRange } from '../../../lib/alarmLimits.ts';
import { CONSUMPTION_QUANTITIES, INDOOR_CLIMATE_QUANTITIES } from '../../../lib/quantities.ts';
import type { Db } from '../../db/client.ts';
import { alarmEvaluations, type alarms, tenancies, tenancyMembers } from '../../db/schema.ts';
import { queryRows } from '../../db/sql.ts';
import { badInput, forbidden, parseInput } from '../../graphql/errors.ts';
import { isWaterQuantity } from '../../jobs/evaluator.ts';
import { storedQuantities } from '../../jobs/values.ts';
import { tenancyAccessOpen } from '../grace.ts';
import type { Alarm, AlarmEvaluation, AlarmFrequency, AlarmInput, AlarmType } from '../types.generated.ts';

/** A positive integer id from a GraphQL ID, or null for anything else (no row can have it). */
export function idOrNull(id: string): number | null {
  return /^\d{1,9}$/.test(id) ? Number(id) : null;
}

/** A positive integer id from a GraphQL ID; anything else is FORBIDDEN like an id of someone else's. */
function idOf(id: string): number {
  const n = idOrNull(id);
  if (n === null) throw forbidden();
  return n;
}

/** The tenancy, when the caller is a member of it; FORBIDDEN otherwise (same refusal as tenantGraph). */
export async function requireTenancy(db: Db, userId: number, tenancyId: string) {
  const id = idOf(tenancyId);
  const [row] = await db
    .select({ tenancy: tenancies })
    .from(tenancyMembers)
    .innerJoin(tenancies, eq(tenancies.id, tenancyMembers.tenancyId))
    .where(and(eq(tenancyMembers.userId, userId), eq(tenancyMembers.tenancyId, id), tenancyAccessOpen));
  if (!row) throw forbidden();
  return row.tenancy;
}

const lower = <T extends string>(x: T) => x.toLowerCase() as Lowercase<T>;
const finite = z.number().min(-1e9).max(1e9);

/** Checks an alarm input; one BAD_USER_INPUT listing every problem. Returns the row values. */
export function parseAlarmInput(input: AlarmInput) {
  const parsed = parseInput(
    z
      .object({
        type: z.enum(['THRESHOLD', 'COMPARISON', 'ZERO_CONSUMPTION', 'INDOOR_CLIMATE']),
        quantity: z.string(),
        frequency: z.enum(['DAY', 'WEEK', 'MONTH', 'YEAR']),
        threshold: finite.nullish(),
        minimum: finite.nullish(),
        maximum: finite.nullish(),
        leakRule: z.boolean().nullish(),
        enabled: z.boolean().nullish(),
      })
      .superRefine((a, ctx) => {
        const allowed = a.type === 'INDOOR_CLIMATE' ? INDOOR_CLIMATE_QUANTITIES : CONSUMPTION_QUANTITIES;
        if (!(allowed as readonly string[]).includes(a.quantity))
          ctx.addIssue({ code: 'custom', path: ['quantity'], message: `not a quantity for ${a.type}` });
        if ((a.type === 'THRESHOLD' || a.type === 'COMPARISON') && (a.threshold == null || a.threshold < 0))
          ctx.addIssue({
            code: 'custom',
            path: ['threshold'],
            message: 'a threshold of 0 or more is required',
          });
        if (a.type === 'ZERO_CONSUMPTION' && a.threshold != null && a.threshold !== 0)
          ctx.addIssue({
            code: 'custom',
            path: ['threshold'],
            message: 'is fixed at 0 for zero consumption',
          });
        if (a.type === 'INDOOR_CLIMATE') {
          if (a.minimum == null && a.maximum == null)
            ctx.addIssue({
              code: 'custom',
              path: ['minimum'],
              message: 'a minimum or a maximum is required',
            });
          if (a.minimum != null && a.maximum != null && a.minimum >= a.maximum)
            ctx.addIssue({ code: 'custom', path: ['maximum'], message: 'must be above the minimum' });
        } else if (a.minimum != null || a.maximum != null)
          ctx.addIssue({
            code: 'custom',
            path: ['minimum'],
            message: 'only indoor climate alarms have bounds',
          });
        // Outside its range a limit is a typo (a humidity of 150 %, a threshold of a billion kWh), not an alarm.
        const range = limitRange(a.type, a.quantity);
        for (const key of ['threshold', 'minimum', 'maximum'] as const) {
          const value = a[key];
          if (
            a.type === 'ZERO_CONSUMPTION' ||
            value == null ||
            (key === 'threshold' && a.type === 'INDOOR_CLIMATE')
          )
            continue;
          if (!inLimitRange(value, range))
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message: `must be from ${range.min} to ${range.max}`,
            });
        }
        if (a.leakRule && (a.type !== 'ZERO_CONSUMPTION' || !isWaterQuantity(a.quantity)))
          ctx.addIssue({ code: 'custom', path: ['leakRule'], message: 'only for zero consumption of water' });
      }),
    input,
  );
  const str = (x: number | null | undefined) => (x == null ? null : String(x));
  return {
    type: lower(parsed.type),
    quantity: parsed.quantity,
    frequency: lower(parsed.frequency),
    threshold:
      parsed.type === 'ZERO_CONSUMPTION'
        ? '0'
        : parsed.type === 'INDOOR_CLIMATE'
          ? null
          : str(parsed.threshold),
    minimum: parsed.type === 'INDOOR_CLIMATE' ? str(parsed.minimum) : null,
    maximum: parsed.type === 'INDOOR_CLIMATE' ? str(parsed.maximum) : null,
    leakRule: parsed.leakRule ?? false,
    enabled: parsed.enabled ?? true,
  };
}

/** BAD_USER_INPUT unless the tenancy's apartment measures the quantity ("from the tenancy's own"). */
export async function requireQuantity(db: Db, apartmentId: number, quantity: string): Promise<void> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM measurement_points
        WHERE apartment_id = ${apartmentId} AND quantity = ANY(${`{${storedQuantities(quantity).join(',')}}`}::text[])`,
  );
  if (!row || Number(row.n) === 0)
    throw badInput(`Invalid input: quantity: this tenancy has no ${quantity} meter`);
}

const num = (x: string | null) => (x === null ? null : Number(x));
const upper = <T extends string>(x: T) => x.toUpperCase() as Uppercase<T>;

type EvaluationRow = typeof alarmEvaluations.$inferSelect;

function evaluationOf(e: EvaluationRow): AlarmEvaluation {
  return {
    periodStart: e.periodStart,
    periodEnd: e.periodEnd,
    state: upper(e.state),
    value: num(e.value),
    reference: num(e.reference),
    reason: e.reason,
    evaluatedAt: e.evaluatedAt.toISOString(),
  };
}

/** The alarms as GraphQL objects, with status and the latest 20 evaluations each (one query for all). */
export async function alarmObjects(db: Db, rows: (typeof alarms.$inferSelect)[]): Promise<Alarm[]> {
  const ids = rows.map((r) => r.id);
  const evaluations = ids.length
    ? await db
        .select()
        .from(alarmEvaluations)
        .where(
          and(
            inArray(alarmEvaluations.alarmId, ids),
            sql`(SELECT count(*) FROM alarm_evaluations newer
                 WHERE newer.alarm_id = ${alarmEvaluations.alarmId}
                   AND newer.period_start > ${alarmEvaluations.periodStart}) < 20`,
          ),
        )
        .orderBy(desc(alarmEvaluations.periodStart))
    : [];
  return rows.map((r) => {
    const history = evaluations.filter((e) => e.alarmId === r.id);
    const lastFired = history.find((e) => e.state === 'fired');
    const latestKnown = history.find((e) => e.state !== 'unknown');
    return {
      id: String(r.id),
      tenancyId: String(r.tenancyId),
      type: upper(r.type) as AlarmType,
      quantity: r.quantity,
      frequency: upper(r.frequency) as AlarmFrequency,
      threshold: num(r.threshold),
      minimum: num(r.minimum),
      maximum: num(r.maximum),
      leakRule: r.leakRule,
      enabled: r.enabled,
      status: !r.enabled ? 'OFF' : latestKnown?.state === 'fired' ? 'TRIGGERED' : 'OK',
      lastFired: lastFired ? evaluationOf(lastFired) : null,
      history: history.map(evaluationOf),
      createdAt: r.createdAt.toISOString(),
    };
  });
}

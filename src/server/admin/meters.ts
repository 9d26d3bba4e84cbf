/**
 * A meter in the console (issue 21): its profile (allocator billing date, rollover digits), radio id and
 * installation period, its recent readings and estimated hours, and a swap with the old meter's end reading and
 * the new one's start reading, through the ingestion's `recordSwap` (the CLI's and the HTTP door's swap). Every
 * write is audited with before and after, in the write's transaction.
 */
import { and, asc, desc, eq, gte, lt, ne, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { apartments, measurementPoints, meters, registerReadings } from '../db/schema.ts';
import { queryRows } from '../db/sql.ts';
import { forbidden, parseInput, plainText } from '../graphql/errors.ts';
import { DataIssueError, recordSwap } from '../ingest/issues.ts';
import { type Actor, recordAudit } from './audit.ts';
import { idOf, type MeterRow, meterSummary } from './properties.ts';
import { propsError } from './propsErrors.ts';
import { type OperatorScope, requireProperty } from './scope.ts';

/** How many readings the meter page lists, and over how many days it counts estimated hours. */
const READINGS_SHOWN = 50;
const ESTIMATE_DAYS = 30;

/** The meter and its point, when the caller reaches its property; FORBIDDEN otherwise (also unknown ids). */
async function requireMeter(db: Db, scope: OperatorScope, rawId: string | number) {
  const [row] = await db
    .select({ meter: meters, point: measurementPoints })
    .from(meters)
    .innerJoin(measurementPoints, eq(measurementPoints.id, meters.measurementPointId))
    .where(eq(meters.id, idOf(rawId)));
  if (!row) throw forbidden();
  const property = await requireProperty(db, scope, row.point.propertyId);
  return { ...row, property };
}

/** The meter page's view: settings, place, the newest readings, estimated hours and the point's meters. */
export async function meterView(db: Db, scope: OperatorScope, rawId: string | number, now = new Date()) {
  const { meter, point, property } = await requireMeter(db, scope, rawId);
  const [flat] = point.apartmentId
    ? await db.select().from(apartments).where(eq(apartments.id, point.apartmentId))
    : [];
  const readings = await db
    .select({ ts: registerReadings.ts, value: registerReadings.value })
    .from(registerReadings)
    .where(eq(registerReadings.meterId, meter.id))
    .orderBy(desc(registerReadings.ts))
    .limit(READINGS_SHOWN);
  const since = new Date(now.getTime() - ESTIMATE_DAYS * 86_400_000);
  const from = meter.installedAt > since ? meter.installedAt : since;
  const until = meter.removedAt && meter.removedAt < now ? meter.removedAt : now;
  const [hours] = await queryRows<{ estimated: number; total: number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE estimated)::int AS estimated, count(*)::int AS total
          FROM hourly_consumption
         WHERE measurement_point_id = ${point.id}
           AND hour_start >= ${from.toISOString()}::timestamptz AND hour_start < ${until.toISOString()}::timestamptz`,
  );
  const history = await db
    .select()
    .from(meters)
    .where(eq(meters.measurementPointId, point.id))
    .orderBy(asc(meters.installedAt), asc(meters.id));
  return {
    ...meterSummary(meter),
    legacyKind: meter.legacyKind,
    rolloverDigits: meter.rolloverDigits,
    resetOn: meter.resetOn,
    propertyId: property.id,
    propertyNumber: property.number,
    apartmentAddress: flat ? `${flat.address}` : null,
    pointName: point.name,
    quantity: point.quantity,
    unit: point.unit,
    readings: readings.map((r) => ({ ts: new Date(r.ts).toISOString(), value: String(r.value) })),
    estimatedHours: hours?.estimated ?? 0,
    hoursWithValues: hours?.total ?? 0,
    history: history.map(meterSummary),
  };
}

const instant = z
  .string()
  .trim()
  .refine(
    (v) => /(Z|[+-]\d\d:?\d\d)$/.test(v) && !Number.isNaN(Date.parse(v)),
    'must be an ISO 8601 time with an offset or Z',
  )
  .transform((v) => new Date(v));

/** Whether MM-DD is a day of a common year (2025). */
const isDayOfYear = (v: string) => {
  const at = Date.parse(`2025-${v}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(5, 10) === v;
};

const settingsInput = z.object({
  radioId: plainText
    .trim()
    .max(64)
    .nullish()
    .transform((v) => v || null),
  rolloverDigits: z
    .number()
    .int()
    .min(1)
    .max(12)
    .nullish()
    .transform((v) => v ?? null),
  resetOn: z
    .string()
    .trim()
    .nullish()
    .transform((v) => v || null)
    .refine(
      (v) => v === null || (/^\d\d-\d\d$/.test(v) && v !== '02-29' && isDayOfYear(v)),
      'must be a date MM-DD (not 02-29)',
    ),
  installedAt: instant,
  removedAt: z
    .string()
    .trim()
    .nullish()
    .transform((v) => v || null)
    .pipe(instant.nullable()),
});

/** A meter's settings as saveMeterSettings takes them. */
export const settingsOf = (m: MeterRow) => ({
  radioId: m.radioId,
  rolloverDigits: m.rolloverDigits,
  resetOn: m.resetOn,
  installedAt: m.installedAt.toISOString(),
  removedAt: m.removedAt?.toISOString() ?? null,
});

/** Sets the meter's settings (saveMeterSettings) and answers with the meter page's view. */
export async function updateMeterSettings(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { id: string } & Record<string, unknown>,
) {
  return meterView(db, scope, await saveMeterSettings(db, scope, who, input));
}

/**
 * Sets the radio id, the profile and the installation period, audited; returns the meter's id. Refused, with
 * nothing written: a radio id another meter has; a period that ends before it starts, overlaps another meter of
 * the point, or leaves out readings.
 */
export async function saveMeterSettings(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { id: string } & Record<string, unknown>,
): Promise<number> {
  const { meter, point } = await requireMeter(db, scope, input.id);
  const v = parseInput(settingsInput, input);
  if (v.removedAt && v.removedAt <= v.installedAt) {
    throw propsError('METER_PERIOD_INVALID', 'The meter must be removed after it was installed');
  }
  await db.transaction(async (tx) => {
    if (v.radioId) {
      const [taken] = await tx
        .select({ id: meters.id })
        .from(meters)
        .where(and(eq(meters.radioId, v.radioId), ne(meters.id, meter.id)));
      if (taken) throw propsError('RADIO_ID_TAKEN', `Radio id ${v.radioId} belongs to another meter`);
    }
    const end = v.removedAt ?? new Date('9999-12-31T00:00:00Z');
    const [overlap] = await tx
      .select({ number: meters.number })
      .from(meters)
      .where(
        and(
          eq(meters.measurementPointId, point.id),
          ne(meters.id, meter.id),
          lt(meters.installedAt, end),
          or(
            sql`${meters.removedAt} IS NULL`,
            sql`${meters.removedAt} > ${v.installedAt.toISOString()}::timestamptz`,
          ),
        ),
      );
    if (overlap) {
      throw propsError(
        'METER_PERIOD_INVALID',
        `The period overlaps meter ${overlap.number} of the same point`,
      );
    }
    const [outside] = await tx
      .select({ ts: registerReadings.ts })
      .from(registerReadings)
      .where(
        and(
          eq(registerReadings.meterId, meter.id),
          or(
            lt(registerReadings.ts, v.installedAt),
            v.removedAt ? gte(registerReadings.ts, v.removedAt) : undefined,
          ),
        ),
      )
      .limit(1);
    if (outside) {
      throw propsError(
        'METER_PERIOD_INVALID',
        `The meter has a reading at ${new Date(outside.ts).toISOString()} outside the period`,
      );
    }
    const [after] = await tx.update(meters).set(v).where(eq(meters.id, meter.id)).returning();
    await recordAudit(tx, who, {
      action: 'meter.update',
      subjectType: 'meter',
      subjectId: meter.number,
      propertyId: point.propertyId,
      before: settingsOf(meter),
      after: settingsOf(after!),
    });
  });
  return meter.id;
}

const swapInput = z.object({
  at: z.string().trim().min(1),
  endValue: z
    .string()
    .trim()
    .nullish()
    .transform((v) => v?.replace(',', '.') || undefined),
  newMeter: plainText.trim().min(1).max(200),
  startValue: z
    .string()
    .trim()
    .min(1)
    .transform((v) => v.replace(',', '.')),
  radioId: plainText
    .trim()
    .max(64)
    .nullish()
    .transform((v) => v || undefined),
});

/** Swaps a meter: the old one ends at `at` with its end reading, the new one starts with its start reading. */
export async function swapMeter(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { meterId: string } & Record<string, unknown>,
) {
  const { meter, point } = await requireMeter(db, scope, input.meterId);
  const v = parseInput(swapInput, input);
  const created = await db
    .transaction(async (tx) => {
      const receipt = await recordSwap(tx as unknown as Db, {
        meter: meter.number,
        at: v.at,
        endValue: v.endValue,
        newMeter: v.newMeter,
        startValue: v.startValue,
        radioId: v.radioId,
        source: `console:${who.actor}`,
      });
      const [fresh] = await tx.select().from(meters).where(eq(meters.number, v.newMeter));
      await recordAudit(tx, who, {
        action: 'meter.swap',
        subjectType: 'meter',
        subjectId: meter.number,
        propertyId: point.propertyId,
        before: { meter: meter.number, removedAt: meter.removedAt?.toISOString() ?? null },
        after: {
          meter: meter.number,
          removedAt: fresh!.installedAt.toISOString(),
          endValue: v.endValue ?? null,
          newMeter: fresh!.number,
          startValue: v.startValue,
          radioId: fresh!.radioId,
          readingsStored: receipt.newReadings,
        },
      });
      return fresh!;
    })
    .catch((err: unknown) => {
      if (err instanceof DataIssueError)
        throw propsError('METER_SWAP_REFUSED', err.message, { reason: err.message });
      throw err;
    });
  return meterView(db, scope, created.id);
}

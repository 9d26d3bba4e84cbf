/**
 * Demo extras, run once after the demo data is seeded (and again after the history backfill, harmlessly):
 * allocation statements computed from the demo's own meters for every demo tenancy that spans their periods
 * (two heating years, or a short demo's measured months; never where nothing was measured), and the public
 * monthly reports of the last two complete months. Both are idempotent.
 */

import { and, eq, inArray, sql } from 'drizzle-orm';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { Temporal } from 'temporal-polyfill';
import { degreeDaysOfMean, normalDegreeDaysBetween } from '../../lib/degreeDays.ts';
import { TIME_ZONE } from '../../lib/periods.ts';
import { ensureDemoOperators } from '../admin/demo.ts';
import type { Db } from '../db/client.ts';
import { allocationStatements, properties, propertyReportSettings } from '../db/schema.ts';
import { queryRows } from '../db/sql.ts';
import { DEMO_FUEL_MIX, parseFuelMix, reportSettings } from '../reports/deployment.ts';
import { generateMonthlyReports } from '../reports/generate.ts';
import { addMonths, lastCompleteMonth } from '../reports/months.ts';
import { readReportSettings, saveReportSettings } from '../reports/settings.ts';
import {
  earliestObjectionDeadline,
  type StatementFileEntry,
  statementInputSchema,
  statementRow,
} from '../statements/model.ts';
import { DEMO_SEED, HOUR_MS, outdoorTemperature, PROPERTY_NUMBER } from './model.ts';

const FIXED_PERCENT = 40;

/** The local date of an instant. */
const today = (now: Date) =>
  Temporal.Instant.fromEpochMilliseconds(now.getTime())
    .toZonedDateTimeISO(TIME_ZONE)
    .toPlainDate()
    .toString();

/** The heating years (1 June – 31 May) that ended before `now`, newest last; `count` of them. */
function heatingYears(now: Date, count: number): { start: string; end: string }[] {
  const month = lastCompleteMonth(now);
  let endYear = Number(month.slice(0, 4));
  if (month.slice(5, 7) < '05') endYear -= 1;
  return Array.from({ length: count }, (_, i) => {
    const y = endYear - (count - 1 - i);
    return { start: `${y - 1}-06-01`, end: `${y}-05-31` };
  });
}

/** Σ max(0, 17 − mean) over days, every day counted (as src/lib/degreeDays.ts). */
function degreeDays(days: { meanC: number }[]): number {
  return days.reduce((sum, d) => sum + degreeDaysOfMean(d.meanC), 0);
}

/** Degree days of a period from the demo property's outdoor rollups, else from the demo weather model. */
async function periodDegreeDays(db: Db, start: string, end: string): Promise<number> {
  const rows = await queryRows<{ day: string; mean: string }>(
    db,
    sql`SELECT d.day::text AS day, (sum(d.sum) / NULLIF(sum(d.count), 0))::text AS mean
          FROM daily_rollups d JOIN measurement_points mp ON mp.id = d.measurement_point_id
          JOIN properties p ON p.id = mp.property_id
         WHERE p.number = ${PROPERTY_NUMBER} AND mp.quantity = 'outdoor-temperature'
           AND d.day BETWEEN ${start}::date AND ${end}::date
         GROUP BY d.day`,
  );
  const means = rows.filter((r) => r.mean !== null).map((r) => ({ day: r.day, meanC: Number(r.mean) }));
  const days = Temporal.PlainDate.from(start).until(Temporal.PlainDate.from(end)).days + 1;
  if (means.length >= days - 5) return Math.round(degreeDays(means));
  const modelled: { day: string; meanC: number }[] = [];
  for (let ms = Date.parse(`${start}T00:00:00Z`); ms <= Date.parse(`${end}T00:00:00Z`); ms += 24 * HOUR_MS) {
    let sum = 0;
    for (let h = 0; h < 24; h++) sum += outdoorTemperature(DEMO_SEED, ms + h * HOUR_MS);
    modelled.push({ day: new Date(ms).toISOString().slice(0, 10), meanC: sum / 24 });
  }
  return Math.round(degreeDays(modelled));
}

/**
 * The demo flats' heat-meter history as the app reads it: the first and the last whole day (23 hours or more in
 * the daily rollups) before today; null when there is none.
 */
async function measuredSpan(db: Db, before: string): Promise<{ first: string; last: string } | null> {
  const [row] = await queryRows<{ first: string | null; last: string | null }>(
    db,
    sql`SELECT min(d.day)::text AS first, max(d.day)::text AS last
          FROM daily_rollups d JOIN measurement_points mp ON mp.id = d.measurement_point_id
          JOIN properties p ON p.id = mp.property_id
         WHERE p.number = ${PROPERTY_NUMBER} AND mp.quantity = 'heat-energy' AND mp.apartment_id IS NOT NULL
           AND d.count >= 23 AND d.day < ${before}::date`,
  );
  return row?.first && row.last ? { first: row.first, last: row.last } : null;
}

/** A statement period of the demo; `index` picks its prices' year and its random stream. */
interface DemoPeriod {
  start: string;
  end: string;
  index: number;
}

/**
 * The periods the demo makes statements for, only where the meters measured (issue 22: nothing is invented).
 * The last two heating years that ended, each from the first measured day on; a year the history does not
 * reach gets none. A short demo (DEMO_DAYS under about a year) whose history reaches no ended heating year gets
 * its statements over the last two months it measured instead, clipped to the measured days.
 */
function demoPeriods(now: Date, span: { first: string; last: string }): DemoPeriod[] {
  const max = (x: string, y: string) => (x > y ? x : y);
  const min = (x: string, y: string) => (x < y ? x : y);
  const years = heatingYears(now, 2)
    .map((y, index) => ({ start: max(y.start, span.first), end: y.end, index }))
    .filter((p) => p.start <= p.end && p.end <= span.last);
  if (years.length > 0) return years;
  const lastMonth = Temporal.PlainDate.from(span.last).with({ day: 1 });
  return [lastMonth.subtract({ months: 1 }), lastMonth]
    .map((month, index) => ({
      start: max(month.toString(), span.first),
      end: min(month.add({ months: 1 }).subtract({ days: 1 }).toString(), span.last),
      index,
    }))
    .filter((p) => p.start <= p.end);
}

/**
 * The heat-meter kWh of each tenancy's flat over the period, from the daily rollups the app reads (issue 22: the
 * statements agree with the meters). The demo's flats all have heat meters, so by the one pricing rule
 * (src/lib/allocators.ts) the heat meter, not the allocators, is what is shared by.
 */
async function meteredKwh(db: Db, period: DemoPeriod, tenancyIds: number[]): Promise<number[]> {
  const rows = await queryRows<{ id: number; kwh: string | null }>(
    db,
    sql`SELECT t.id, sum(d.sum)::text AS kwh FROM tenancies t
          JOIN measurement_points mp ON mp.apartment_id = t.apartment_id AND mp.quantity = 'heat-energy'
          JOIN daily_rollups d ON d.measurement_point_id = mp.id
         WHERE t.id = ANY(${`{${tenancyIds.join(',')}}`}::int[])
           AND d.day BETWEEN ${period.start}::date AND ${period.end}::date
         GROUP BY t.id`,
  );
  const byId = new Map(rows.map((r) => [Number(r.id), Number(r.kwh ?? 0)]));
  return tenancyIds.map((id) => byId.get(id) ?? 0);
}

/** Builds the demo statements of one period for the tenancies given (pure apart from the rng). */
function demoStatementsFor(
  period: DemoPeriod,
  tenancyRows: { ref: string; area: number }[],
  degreeDays: { period: number; normalYear: number },
  issuedOn: string,
  kwh: number[],
): StatementFileEntry[] {
  const rng = xoroshiro128plus(DEMO_SEED + 77 + period.index);
  const propertyArea = tenancyRows.reduce((s, t) => s + t.area, 0);
  const units = kwh.map((x) => Math.round(x * 1000) / 1000);
  const propertyUnits = units.reduce((s, u) => s + u, 0);
  // The year's costs, for the part of it the period covers.
  const days = Temporal.PlainDate.from(period.start).until(Temporal.PlainDate.from(period.end)).days + 1;
  const scale = (tenancyRows.length / 24) * Math.min(1, days / 365);
  const inflation = 1 + 0.04 * period.index;
  const totals = [
    { type: 'heating' as const, minor: Math.round(1_240_000 * scale * inflation) * 100 },
    { type: 'meter-rental' as const, minor: Math.round(21_600 * scale) * 100 },
    { type: 'administration' as const, minor: Math.round(9_800 * scale) * 100 },
  ];
  const deadline = earliestObjectionDeadline(issuedOn, 'DK');
  return tenancyRows.map((t, i) => {
    const expenses = totals.map((e) => ({
      type: e.type,
      propertyTotal: (e.minor / 100).toFixed(2),
      tenantFixed: (Math.round((e.minor * FIXED_PERCENT * t.area) / (100 * propertyArea)) / 100).toFixed(2),
      tenantVariable: (
        Math.round((e.minor * (100 - FIXED_PERCENT) * units[i]!) / (100 * propertyUnits)) / 100
      ).toFixed(2),
    }));
    const share = expenses.reduce((s, e) => s + Number(e.tenantFixed) + Number(e.tenantVariable), 0);
    // Advance payments: equal monthly amounts in whole kroner, set from last year's estimate.
    const monthly = Math.round((share * (0.9 + uniformFloat64(rng) * 0.2)) / 12);
    return {
      tenancy: t.ref,
      periodStart: period.start,
      periodEnd: period.end,
      currency: 'DKK',
      fixedSharePercent: FIXED_PERCENT,
      variableSharePercent: 100 - FIXED_PERCENT,
      area: { tenantM2: t.area, propertyM2: propertyArea },
      consumption: { unit: 'kilo-watt-hour', tenant: units[i]!, property: propertyUnits },
      expenses,
      advancePayments: (monthly * 12).toFixed(2),
      degreeDays,
      objectionDeadline: deadline,
    };
  });
}

/**
 * Adds the demo tenancies' statements over the periods the meters measured (demoPeriods); skips ones already
 * there, and removes the demo's own statements that no longer agree with the history: a year's drawn or shorter
 * ones once the meters reach further into it (the background backfill), and a short demo's month statements
 * once a heating year is measured or the months move on. Returns how many were added.
 */
export async function seedDemoStatements(db: Db, now: Date): Promise<number> {
  const span = await measuredSpan(db, today(now));
  const years = heatingYears(now, 2);
  const periods = span ? demoPeriods(now, span) : [];
  const demoTenancies = (
    await queryRows<{ id: number }>(
      db,
      sql`SELECT t.id FROM tenancies t JOIN apartments a ON a.id = t.apartment_id
            JOIN properties p ON p.id = a.property_id WHERE p.number = ${PROPERTY_NUMBER}`,
    )
  ).map((r) => Number(r.id));
  if (demoTenancies.length === 0) return 0;
  const kept = periods.map((p) => `${p.start}/${p.end}`);
  // The demo's statements of a period it no longer makes: a heating year (or its later part) without its
  // measured period, or a short demo's months. Only the demo's own (source 'demo'); a statement an operator
  // imported is left alone.
  const lastYearEnd = years.at(-1)!.end;
  await db.delete(allocationStatements).where(
    and(
      inArray(allocationStatements.tenancyId, demoTenancies),
      eq(allocationStatements.source, 'demo'),
      sql`(${allocationStatements.periodStart}::text || '/' || ${allocationStatements.periodEnd}::text) <> ALL(${`{${kept.join(',')}}`}::text[])`,
      sql`(${allocationStatements.periodEnd} > ${lastYearEnd}::date
           OR ${allocationStatements.periodEnd} = ANY(${`{${years.map((y) => y.end).join(',')}}`}::date[]))`,
    ),
  );
  let added = 0;
  for (const period of periods) {
    const rows = await queryRows<{ id: number; ref: string; area: string }>(
      db,
      sql`SELECT t.id, t.tenancy_id AS ref, a.area_m2::text AS area
            FROM tenancies t JOIN apartments a ON a.id = t.apartment_id
            JOIN properties p ON p.id = a.property_id
           WHERE p.number = ${PROPERTY_NUMBER} AND t.start <= ${period.start}::date
             AND (t.end IS NULL OR t.end >= ${period.end}::date)
           ORDER BY t.id`,
    );
    if (rows.length === 0) continue;
    const normalYear = normalDegreeDaysBetween(
      Temporal.PlainDate.from(period.start),
      Temporal.PlainDate.from(period.end).add({ days: 1 }),
    );
    // A few summer days have (almost) no normal degree days: nothing to compare the period's weather with.
    if (normalYear < 0.5) continue;
    const degreeDays = {
      period: await periodDegreeDays(db, period.start, period.end),
      // The same published normal as the app's (src/lib/degreeDays.ts), over the same days.
      normalYear: Math.max(1, Math.round(normalYear)),
    };
    const kwh = await meteredKwh(
      db,
      period,
      rows.map((r) => Number(r.id)),
    );
    if (kwh.reduce((sum, x) => sum + x, 0) <= 0) continue;
    // Made two months after the period, or today if that is sooner; the deadline is the Danish 6 weeks after.
    const issuedOn = [
      Temporal.PlainDate.from(period.end).add({ months: 2 }).toString(),
      today(now),
    ].sort()[0]!;
    const inputs = demoStatementsFor(
      period,
      rows.map((r) => ({ ref: r.ref, area: Number(r.area) })),
      degreeDays,
      issuedOn,
      kwh,
    );
    const idOf = new Map(rows.map((r) => [r.ref, Number(r.id)]));
    await db.transaction(async (tx) => {
      for (const raw of inputs) {
        // The demo goes through the same checks as an operator's import file.
        const s = statementInputSchema.parse(raw);
        const inserted = await tx
          .insert(allocationStatements)
          .values({
            tenancyId: idOf.get(s.tenancy)!,
            ...statementRow(s),
            source: 'demo',
            createdAt: new Date(
              Temporal.PlainDate.from(issuedOn).toZonedDateTime({ timeZone: TIME_ZONE, plainTime: '10:00' })
                .epochMilliseconds,
            ),
          })
          .onConflictDoNothing()
          .returning({ id: allocationStatements.id });
        added += inserted.length;
      }
    });
  }
  return added;
}

/** Statements, then the monthly reports of the last two complete months. Safe to call on every start. */
export async function afterDemoSeed(db: Db, now: Date): Promise<void> {
  await ensureDemoOperators(db);
  await seedDemoReportSettings(db);
  await seedDemoStatements(db, now);
  const settings = reportSettings();
  const last = lastCompleteMonth(now);
  for (const month of [addMonths(last, -1), last]) await generateMonthlyReports(db, { month, now, settings });
}

/**
 * The demo property's report settings (per property, as an operator would set them), once: a stored row is
 * left as it is, so an operator's edits survive restarts. Figures are of the kind a Danish district-heating
 * company publishes for a year.
 */
async function seedDemoReportSettings(db: Db): Promise<void> {
  const [property] = await db
    .select({ id: properties.id })
    .from(properties)
    .where(eq(properties.number, PROPERTY_NUMBER));
  if (!property) return;
  const [stored] = await db
    .select({ id: propertyReportSettings.propertyId })
    .from(propertyReportSettings)
    .where(eq(propertyReportSettings.propertyId, property.id));
  if (stored) return;
  const saved = await saveReportSettings(db, property.id, {
    ...(await readReportSettings(db, property.id)),
    landlordType: 'private',
    hotWaterShare: 0.25,
    fuelMix: parseFuelMix(DEMO_FUEL_MIX),
    networkYear: 2025,
    networkCo2Tonnes: 41_200,
    networkCo2GramPerKwh: 62,
    primaryEnergyFactor: 0.85,
    fees: [
      { kind: 'tax', amountPerYear: 420 },
      { kind: 'levy', amountPerYear: 96 },
      { kind: 'metering', amountPerYear: 365 },
      { kind: 'reading', amountPerYear: 180 },
      { kind: 'billing', amountPerYear: 240 },
    ],
    currency: 'DKK',
    disputeBodyName: 'Huslejenævnet i Københavns Kommune',
    disputeBodyUrl: 'https://www.kk.dk/borger/bolig-og-byggeri/lejebolig/huslejenaevn',
  });
  if (!saved.ok) throw new Error(`demo report settings refused: ${JSON.stringify(saved)}`);
}

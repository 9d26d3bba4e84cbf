/**
 * Demo extras, run once after the demo data is seeded (and again after the history backfill, harmlessly):
 * two heating years of allocation statements for every demo tenancy that spans them, and the public monthly
 * reports of the last two complete months. Both are idempotent.
 */

import { and, eq, inArray, ne, sql } from 'drizzle-orm';
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

/** The consumption a statement is shared by: the flats' heat meters (kWh), or drawn allocator units. */
type Basis = { unit: 'kilo-watt-hour' | 'hca-unit'; byTenancy: number[] };

/**
 * The heat-meter kWh of each tenancy's flat over [from, to], from the daily rollups the app reads (issue 22: the
 * statements agree with the meters). The demo's flats all have heat meters, so by the one pricing rule
 * (src/lib/allocators.ts) the heat meter, not the allocators, is what is shared by. Null when the demo's meter
 * history does not reach into the period.
 */
async function meteredPeriod(
  db: Db,
  year: { start: string; end: string },
  tenancyIds: number[],
): Promise<{ from: string; byTenancy: number[] } | null> {
  const rows = await queryRows<{ id: number; first: string | null; kwh: string | null }>(
    db,
    sql`WITH heat AS (
          SELECT t.id, d.day, d.sum, d.count FROM tenancies t
            JOIN measurement_points mp ON mp.apartment_id = t.apartment_id AND mp.quantity = 'heat-energy'
            JOIN daily_rollups d ON d.measurement_point_id = mp.id
           WHERE t.id = ANY(${`{${tenancyIds.join(',')}}`}::int[])
             AND d.day BETWEEN ${year.start}::date AND ${year.end}::date),
        first AS (SELECT min(day) AS day FROM heat WHERE count >= 23)
        SELECT t.id, (SELECT day FROM first)::text AS first,
               (SELECT sum(h.sum) FROM heat h WHERE h.id = t.id AND h.day >= (SELECT day FROM first))::text AS kwh
          FROM unnest(${`{${tenancyIds.join(',')}}`}::int[]) AS t(id)`,
  );
  const from = rows[0]?.first ?? null;
  if (from === null) return null;
  const byId = new Map(rows.map((r) => [Number(r.id), Number(r.kwh ?? 0)]));
  return { from, byTenancy: tenancyIds.map((id) => byId.get(id) ?? 0) };
}

/** Builds the demo statements of one heating year for the tenancies given (pure apart from the rng). */
function demoStatementsFor(
  year: { start: string; end: string },
  tenancyRows: { ref: string; area: number }[],
  degreeDaysOfPeriod: number,
  yearIndex: number,
  issuedOn: string,
  metered: Basis | null,
): StatementFileEntry[] {
  const rng = xoroshiro128plus(DEMO_SEED + 77 + yearIndex);
  const propertyArea = tenancyRows.reduce((s, t) => s + t.area, 0);
  // Outside the demo's meter history (short demos) there is nothing to agree with: units are drawn there.
  const drawn = tenancyRows.map((t) => Math.round(t.area * (16 + uniformFloat64(rng) * 12)));
  const basis: Basis = metered ?? { unit: 'hca-unit', byTenancy: drawn };
  const units = basis.byTenancy.map((x) => Math.round(x * 1000) / 1000);
  const propertyUnits = units.reduce((s, u) => s + u, 0);
  const scale = tenancyRows.length / 24;
  const inflation = 1 + 0.04 * yearIndex;
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
    // Advance payments: twelve equal monthly amounts in whole kroner, set from last year's estimate.
    const monthly = Math.round((share * (0.9 + uniformFloat64(rng) * 0.2)) / 12);
    return {
      tenancy: t.ref,
      periodStart: year.start,
      periodEnd: year.end,
      currency: 'DKK',
      fixedSharePercent: FIXED_PERCENT,
      variableSharePercent: 100 - FIXED_PERCENT,
      area: { tenantM2: t.area, propertyM2: propertyArea },
      consumption: { unit: basis.unit, tenant: units[i]!, property: propertyUnits },
      expenses,
      advancePayments: (monthly * 12).toFixed(2),
      degreeDays: {
        period: degreeDaysOfPeriod,
        // The same published normal as the app's (src/lib/degreeDays.ts), over the same days.
        normalYear: Math.round(
          normalDegreeDaysBetween(
            Temporal.PlainDate.from(year.start),
            Temporal.PlainDate.from(year.end).add({ days: 1 }),
          ),
        ),
      },
      objectionDeadline: deadline,
    };
  });
}

/**
 * Adds two heating years of statements for the demo tenancies that span them; skips ones already there, and
 * replaces a year's stale ones when the meters now reach further into it. Returns how many were added.
 */
export async function seedDemoStatements(db: Db, now: Date): Promise<number> {
  let added = 0;
  const years = heatingYears(now, 2);
  for (const [index, year] of years.entries()) {
    const rows = await queryRows<{ id: number; ref: string; area: string }>(
      db,
      sql`SELECT t.id, t.tenancy_id AS ref, a.area_m2::text AS area
            FROM tenancies t JOIN apartments a ON a.id = t.apartment_id
            JOIN properties p ON p.id = a.property_id
           WHERE p.number = ${PROPERTY_NUMBER} AND t.start <= ${year.start}::date
             AND (t.end IS NULL OR t.end >= ${year.end}::date)
           ORDER BY t.id`,
    );
    if (rows.length === 0) continue;
    // Where the demo's meters reach into the year, the statement covers the metered part and shares by it.
    const metered = await meteredPeriod(
      db,
      year,
      rows.map((r) => Number(r.id)),
    );
    const period = { start: metered?.from ?? year.start, end: year.end };
    const dd = await periodDegreeDays(db, period.start, period.end);
    // Made two months after the period, or today if that is sooner; the deadline is the Danish 6 weeks after.
    const issuedOn = [Temporal.PlainDate.from(year.end).add({ months: 2 }).toString(), today(now)].sort()[0]!;
    const inputs = demoStatementsFor(
      period,
      rows.map((r) => ({ ref: r.ref, area: Number(r.area) })),
      dd,
      index,
      issuedOn,
      metered && { unit: 'kilo-watt-hour', byTenancy: metered.byTenancy },
    );
    const idOf = new Map(rows.map((r) => [r.ref, Number(r.id)]));
    await db.transaction(async (tx) => {
      // Once the meters reach into the year (the background backfill got there after the statements were first
      // made), a statement of the year over another period (drawn units, or a shorter metered part) is the
      // demo's own stale one: it gives way to the one that agrees with the meters.
      if (metered)
        await tx
          .delete(allocationStatements)
          .where(
            and(
              inArray(allocationStatements.tenancyId, [...idOf.values()]),
              eq(allocationStatements.periodEnd, period.end),
              ne(allocationStatements.periodStart, period.start),
            ),
          );
      for (const raw of inputs) {
        // The demo goes through the same checks as an operator's import file.
        const s = statementInputSchema.parse(raw);
        const inserted = await tx
          .insert(allocationStatements)
          .values({
            tenancyId: idOf.get(s.tenancy)!,
            ...statementRow(s),
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

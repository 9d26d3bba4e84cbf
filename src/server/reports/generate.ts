/**
 * The monthly-report job: for each tenancy that lived in a complete month, read its figures, build the report
 * (model.ts, pure) and store it with one idempotent insert. The job key is (monthly-report, tenancy, month):
 * the unique (tenancy_id, month) index makes a second run write nothing, so it can run on any schedule.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { parseClientConfig } from '../../client/configSchema.ts';
import { parseLanguage } from '../../lib/languages.ts';
import { consumerOrganisation, disputeBodies } from '../../lib/reportSettings.ts';
import { readAllocatorMonths } from '../allocators/months.ts';
import type { Db } from '../db/client.ts';
import {
  accounts,
  apartments,
  measurementPoints,
  monthlyReports,
  prices,
  properties,
  propertyCo2Factors,
  tenancies,
  tenancyMembers,
  users,
} from '../db/schema.ts';
import { queryRows } from '../db/sql.ts';
import { MIN_HOURS_PER_DAY } from '../tenant/degreeDays.ts';
import { MIN_PROPERTY_APARTMENTS } from '../tenant/graph/series.ts';
import type { ReportSettings } from './deployment.ts';
import { buildMonthlyReport, type MonthlyReport, type ReportInput } from './model.ts';
import { addMonths, lastDayOf } from './months.ts';
import { readReportSettings } from './settings.ts';

/** A new report code: 32 random bytes as base64url (43 characters, 256 bits): not guessable or enumerable. */
function newReportCode(): string {
  return randomBytes(32).toString('base64url');
}

type TenancyRow = {
  id: number;
  start: string;
  end: string | null;
  billingStart: string | null;
  apartmentId: number;
  propertyId: number;
  address: string;
  apartment: string;
  zipcode: string;
  city: string;
  areaM2: string;
  landlord: string;
  phone: string | null;
  email: string | null;
  country: string;
};

/** Tenancies whose dates overlap the month. */
async function tenanciesIn(db: Db, month: string, only?: number): Promise<TenancyRow[]> {
  const end = lastDayOf(month);
  return db
    .select({
      id: tenancies.id,
      start: tenancies.start,
      end: tenancies.end,
      billingStart: tenancies.billingStart,
      apartmentId: apartments.id,
      propertyId: properties.id,
      address: apartments.address,
      apartment: apartments.apartment,
      zipcode: apartments.zipcode,
      city: apartments.city,
      areaM2: apartments.areaM2,
      landlord: accounts.name,
      phone: properties.contactPhone,
      email: properties.contactEmail,
      country: properties.country,
    })
    .from(tenancies)
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .innerJoin(properties, eq(properties.id, apartments.propertyId))
    .innerJoin(accounts, eq(accounts.id, properties.accountId))
    .where(
      and(
        lte(tenancies.start, end),
        or(isNull(tenancies.end), gte(tenancies.end, month)),
        only === undefined ? undefined : eq(tenancies.id, only),
      ),
    )
    .orderBy(asc(tenancies.id));
}

/** Reads everything buildMonthlyReport needs for one tenancy and month. */
async function readReportInput(db: Db, t: TenancyRow, month: string): Promise<ReportInput> {
  const settings = await readReportSettings(db, t.propertyId);
  const lastYear = addMonths(month, -12);
  const costFrom =
    t.billingStart && t.billingStart.slice(0, 7) <= month.slice(0, 7)
      ? `${t.billingStart.slice(0, 7)}-01`
      : `${month.slice(0, 4)}-01-01`;
  // ISO dates sort as text: the earlier of the two.
  const from = [costFrom, lastYear].sort()[0]!;
  const to = lastDayOf(month);

  // The apartment's consumption per quantity and month, only within the tenancy's dates, and its CO₂: each day
  // times the factor valid that day (graph/series.ts rateJoin, the app's rule); null when no day has a factor.
  const apartmentRows = await queryRows<{
    quantity: string;
    unit: string;
    month: string;
    total: string;
    co2: string | null;
  }>(
    db,
    sql`SELECT mp.quantity, mp.unit, to_char(date_trunc('month', d.day), 'YYYY-MM-DD') AS month,
               sum(d.sum)::text AS total, sum(d.sum * f.rate)::text AS co2
          FROM daily_rollups d
          JOIN measurement_points mp ON mp.id = d.measurement_point_id
          LEFT JOIN LATERAL (
            SELECT cf.gram_per_quantity_unit AS rate FROM property_co2_factors cf
             WHERE cf.property_id = ${t.propertyId} AND cf.quantity = mp.quantity
               AND (cf.valid_from IS NULL OR cf.valid_from <= d.day) AND (cf.valid_to IS NULL OR cf.valid_to > d.day)
             ORDER BY cf.valid_from DESC NULLS LAST LIMIT 1) f ON true
         WHERE mp.apartment_id = ${t.apartmentId} AND mp.reading_kind = 'register'
           AND d.day BETWEEN GREATEST(${from}::date, ${t.start}::date)
                         AND LEAST(${to}::date, COALESCE(${t.end}::date, ${to}::date))
         GROUP BY 1, 2, 3`,
  );
  const apartment: ReportInput['apartment'] = {};
  for (const r of apartmentRows) {
    apartment[r.quantity] ??= { unit: r.unit, months: {}, co2Grams: {} };
    const series = apartment[r.quantity]!;
    series.months[r.month] = Number(r.total);
    if (r.co2 !== null) series.co2Grams![r.month] = Number(r.co2);
  }

  // The property average only for months where every day had at least MIN_PROPERTY_APARTMENTS apartments with
  // data, as in the app: with two, one tenant could read the neighbour's use.
  const propertyRows = await queryRows<{
    quantity: string;
    month: string;
    per_m2: string;
    shown: boolean;
  }>(
    db,
    sql`SELECT quantity, to_char(date_trunc('month', day), 'YYYY-MM-DD') AS month,
               sum(per_m2)::text AS per_m2,
               bool_and(apartments >= ${MIN_PROPERTY_APARTMENTS}) AS shown
          FROM property_daily_rollups
         WHERE property_id = ${t.propertyId} AND day BETWEEN ${lastYear}::date AND ${to}::date
         GROUP BY 1, 2`,
  );
  const propertyPerM2: ReportInput['propertyPerM2'] = {};
  for (const r of propertyRows) {
    propertyPerM2[r.quantity] ??= {};
    if (r.shown) propertyPerM2[r.quantity]![r.month] = Number(r.per_m2);
  }
  // kWh per allocator unit, month by month, by the one rule the app and the statement follow. The property's
  // figures are stored once per property and month and shared by its tenancies' reports (allocators/propertyMonths.ts).
  const allocators = await readAllocatorMonths(db, {
    stored: true,
    propertyId: t.propertyId,
    apartmentId: t.apartmentId,
    from: lastYear,
    to,
    operatorKwhPerUnit: settings.hcaKwhPerUnit,
  });
  const allocatorFactors: ReportInput['allocatorFactors'] = {};
  for (const m of [month, addMonths(month, -1), lastYear]) allocatorFactors[m] = allocators.factorOf(m);

  // Day by day for the climate correction: the heat quantity's values (heat-energy, else hca) within the
  // tenancy and the property's degree days (complete days only, as the app), this month and a year earlier.
  const heatQuantity = apartment['heat-energy'] ? 'heat-energy' : 'hca';
  const dayRows = await queryRows<{ day: string; value: string | null; dd: string | null }>(
    db,
    sql`WITH days AS (
          SELECT g::date AS day FROM generate_series(${month}::date, ${to}::date, interval '1 day') g
          UNION ALL
          SELECT g::date FROM generate_series(${lastYear}::date, ${lastDayOf(lastYear)}::date, interval '1 day') g)
        SELECT days.day::text AS day,
          (SELECT sum(d.sum) FROM daily_rollups d JOIN measurement_points mp ON mp.id = d.measurement_point_id
            WHERE mp.apartment_id = ${t.apartmentId} AND mp.quantity = ${heatQuantity} AND d.day = days.day
              AND d.day >= ${t.start}::date AND (${t.end}::date IS NULL OR d.day <= ${t.end}::date))::text AS value,
          (SELECT dd.degree_days FROM property_degree_days dd
            WHERE dd.property_id = ${t.propertyId} AND dd.day = days.day AND dd.hours >= ${MIN_HOURS_PER_DAY})::text AS dd
        FROM days ORDER BY 1`,
  );
  const byDay = new Map(dayRows.map((r) => [r.day, r]));
  const num = (v: string | null | undefined) => (v == null ? null : Number(v));
  const days: ReportInput['days'] = dayRows
    .filter((r) => r.day >= month)
    .map((r) => {
      const before = byDay.get(Temporal.PlainDate.from(r.day).subtract({ years: 1 }).toString());
      return {
        day: r.day,
        value: num(r.value),
        degreeDays: num(r.dd),
        lastYearValue: num(before?.value),
        lastYearDegreeDays: num(before?.dd),
      };
    });

  const metered = await db
    .selectDistinct({ quantity: measurementPoints.quantity })
    .from(measurementPoints)
    .where(eq(measurementPoints.apartmentId, t.apartmentId));
  const priceRows = await db.select().from(prices).where(eq(prices.propertyId, t.propertyId));
  // The factors valid on the month's last day, for the supply section's g CO₂ per kWh.
  const co2Rows = await db
    .select()
    .from(propertyCo2Factors)
    .where(
      and(
        eq(propertyCo2Factors.propertyId, t.propertyId),
        or(isNull(propertyCo2Factors.validFrom), lte(propertyCo2Factors.validFrom, to)),
        or(isNull(propertyCo2Factors.validTo), gt(propertyCo2Factors.validTo, to)),
      ),
    )
    .orderBy(sql`${propertyCo2Factors.validFrom} ASC NULLS FIRST`);

  return {
    month,
    costFrom,
    tenancy: {
      address: t.address,
      apartment: t.apartment,
      zipcode: t.zipcode,
      city: t.city,
      areaM2: Number(t.areaM2),
    },
    landlord: { name: t.landlord, phone: t.phone, email: t.email },
    meteredQuantities: metered.map((m) => m.quantity).sort(),
    apartment,
    propertyPerM2,
    allocatorFactors,
    days,
    settings,
    bodies: {
      dispute: disputeBodies(settings, t.country),
      consumer: consumerOrganisation(settings, t.country),
    },
    prices: priceRows.map((p) => ({
      quantity: p.quantity,
      price: Number(p.price),
      currency: p.currency,
      validFrom: p.validFrom,
      validTo: p.validTo,
    })),
    co2: Object.fromEntries(co2Rows.map((c) => [c.quantity, Number(c.gramPerQuantityUnit)])),
  };
}

/** The tenancy's language: its first member's, else the deployment default. */
async function tenancyLanguage(db: Db, tenancyId: number): Promise<string> {
  const [member] = await db
    .select({ language: users.language })
    .from(tenancyMembers)
    .innerJoin(users, eq(users.id, tenancyMembers.userId))
    .where(eq(tenancyMembers.tenancyId, tenancyId))
    .orderBy(asc(tenancyMembers.createdAt), asc(users.id))
    .limit(1);
  return parseLanguage(member?.language) ?? parseClientConfig(process.env).defaultLanguage;
}

export interface GenerateResult {
  month: string;
  created: number;
  /** Reports whose figures changed since the last run (late readings); code and expiry are kept. */
  updated: number;
  unchanged: number;
  /** Tenancies without any consumption in the month or the two compared with: no report. */
  skipped: number;
}

/**
 * Generates the month's reports for every tenancy (or one), idempotently: a new report gets a code and an
 * expiry; an existing one keeps both and only takes figures that changed, so a rerun writes nothing new.
 */
export async function generateMonthlyReports(
  db: Db,
  opts: { month: string; now: Date; settings: ReportSettings; tenancyId?: number },
): Promise<GenerateResult> {
  const result: GenerateResult = { month: opts.month, created: 0, updated: 0, unchanged: 0, skipped: 0 };
  const expiresAt = new Date(opts.now.getTime() + opts.settings.ttlDays * 86_400_000);
  for (const t of await tenanciesIn(db, opts.month, opts.tenancyId)) {
    const report: MonthlyReport = buildMonthlyReport(await readReportInput(db, t, opts.month));
    if (report.quantities.length === 0) {
      result.skipped++;
      continue;
    }
    const code = newReportCode();
    const [row] = await db
      .insert(monthlyReports)
      .values({
        code,
        tenancyId: t.id,
        month: opts.month,
        language: await tenancyLanguage(db, t.id),
        content: report,
        expiresAt,
      })
      .onConflictDoUpdate({
        target: [monthlyReports.tenancyId, monthlyReports.month],
        set: { content: report },
        setWhere: sql`${monthlyReports.content} IS DISTINCT FROM excluded.content`,
      })
      .returning({ code: monthlyReports.code });
    if (!row) result.unchanged++;
    else if (row.code === code) result.created++;
    else result.updated++;
  }
  return result;
}

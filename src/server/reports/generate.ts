/**
 * The monthly-report job: for each tenancy that lived in a complete month, read its figures, build the report
 * (model.ts, pure) and store it with one idempotent insert. The job key is (monthly-report, tenancy, month):
 * the unique (tenancy_id, month) index makes a second run write nothing, so it can run on any schedule.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { parseClientConfig } from '../../client/configSchema.ts';
import { parseLanguage } from '../../lib/languages.ts';
import type { Db } from '../db/client.ts';
import {
  accounts,
  apartments,
  monthlyReports,
  prices,
  properties,
  propertyCo2Factors,
  tenancies,
  tenancyMembers,
  users,
} from '../db/schema.ts';
import { queryRows } from '../db/sql.ts';
import type { ReportSettings } from './deployment.ts';
import { buildMonthlyReport, type MonthlyReport, type ReportInput } from './model.ts';
import { addMonths, lastDayOf } from './months.ts';

/** The job's name in its dedupe key. */
export const MONTHLY_REPORT_JOB = 'monthly-report';

/** A new report code: 32 random bytes as base64url (43 characters, 256 bits): not guessable or enumerable. */
export function newReportCode(): string {
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
export async function readReportInput(
  db: Db,
  t: TenancyRow,
  month: string,
  settings: Pick<ReportSettings, 'fuelMix'>,
): Promise<ReportInput> {
  const lastYear = addMonths(month, -12);
  const costFrom =
    t.billingStart && t.billingStart.slice(0, 7) <= month.slice(0, 7)
      ? `${t.billingStart.slice(0, 7)}-01`
      : `${month.slice(0, 4)}-01-01`;
  // ISO dates sort as text: the earlier of the two.
  const from = [costFrom, lastYear].sort()[0]!;
  const to = lastDayOf(month);

  // The apartment's consumption per quantity and month, only within the tenancy's dates.
  const apartmentRows = await queryRows<{ quantity: string; unit: string; month: string; total: string }>(
    db,
    sql`SELECT mp.quantity, mp.unit, to_char(date_trunc('month', d.day), 'YYYY-MM-DD') AS month,
               sum(d.sum)::text AS total
          FROM daily_rollups d
          JOIN measurement_points mp ON mp.id = d.measurement_point_id
         WHERE mp.apartment_id = ${t.apartmentId} AND mp.reading_kind = 'register'
           AND d.day BETWEEN GREATEST(${from}::date, ${t.start}::date)
                         AND LEAST(${to}::date, COALESCE(${t.end}::date, ${to}::date))
         GROUP BY 1, 2, 3`,
  );
  const apartment: ReportInput['apartment'] = {};
  for (const r of apartmentRows) {
    apartment[r.quantity] ??= { unit: r.unit, months: {} };
    apartment[r.quantity]!.months[r.month] = Number(r.total);
  }

  const propertyRows = await queryRows<{ quantity: string; month: string; per_m2: string; total: string }>(
    db,
    sql`SELECT quantity, to_char(date_trunc('month', day), 'YYYY-MM-DD') AS month,
               sum(per_m2)::text AS per_m2, sum(sum)::text AS total
          FROM property_daily_rollups
         WHERE property_id = ${t.propertyId} AND day BETWEEN ${lastYear}::date AND ${to}::date
         GROUP BY 1, 2`,
  );
  const propertyPerM2: ReportInput['propertyPerM2'] = {};
  const propertyHeat: ReportInput['propertyHeat'] = {};
  for (const r of propertyRows) {
    propertyPerM2[r.quantity] ??= {};
    propertyPerM2[r.quantity]![r.month] = Number(r.per_m2);
    if (r.quantity === 'heat-energy' || r.quantity === 'hca') {
      propertyHeat[r.month] ??= { heatKwh: 0, hcaUnits: 0 };
      const entry = propertyHeat[r.month]!;
      if (r.quantity === 'heat-energy') entry.heatKwh = Number(r.total);
      else entry.hcaUnits = Number(r.total);
    }
  }

  const outdoorRows = await queryRows<{ day: string; mean: string }>(
    db,
    sql`SELECT d.day::text AS day, (sum(d.sum) / NULLIF(sum(d.count), 0))::text AS mean
          FROM daily_rollups d
          JOIN measurement_points mp ON mp.id = d.measurement_point_id
         WHERE mp.property_id = ${t.propertyId} AND mp.apartment_id IS NULL
           AND mp.quantity = 'outdoor-temperature'
           AND ((d.day BETWEEN ${month}::date AND ${to}::date)
             OR (d.day BETWEEN ${lastYear}::date AND ${lastDayOf(lastYear)}::date))
         GROUP BY d.day ORDER BY d.day`,
  );
  const outdoor: ReportInput['outdoor'] = { month: [], lastYear: [] };
  for (const r of outdoorRows) {
    if (r.mean === null) continue;
    (r.day >= month ? outdoor.month : outdoor.lastYear).push({ day: r.day, meanC: Number(r.mean) });
  }

  const priceRows = await db.select().from(prices).where(eq(prices.propertyId, t.propertyId));
  const co2Rows = await db
    .select()
    .from(propertyCo2Factors)
    .where(eq(propertyCo2Factors.propertyId, t.propertyId));

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
    apartment,
    propertyPerM2,
    propertyHeat,
    outdoor,
    prices: priceRows.map((p) => ({
      quantity: p.quantity,
      price: Number(p.price),
      currency: p.currency,
      validFrom: p.validFrom,
      validTo: p.validTo,
    })),
    co2: Object.fromEntries(co2Rows.map((c) => [c.quantity, Number(c.gramPerQuantityUnit)])),
    fuelMix: settings.fuelMix,
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
    const report: MonthlyReport = buildMonthlyReport(await readReportInput(db, t, opts.month, opts.settings));
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

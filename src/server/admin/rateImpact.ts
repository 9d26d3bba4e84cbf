/**
 * What a change of a price, fixed charge or CO₂ factor touches (issue 21), shown before it is saved: the months
 * (up to the current one) whose figures change, the tenancies of the property whose figures those are, and how
 * many monthly reports were already issued for them (those keep what they said).
 */
import { sql } from 'drizzle-orm';
import { TIME_ZONE } from '../../lib/periods.ts';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';

interface ImpactTenancy {
  id: number;
  reference: string;
  apartment: string;
  start: string;
  end: string | null;
}

export interface RateImpact {
  /** First day whose figures change. */
  from: string;
  /** The first day after the change (exclusive); null open-ended. */
  to: string | null;
  /** Calendar months (YYYY-MM), oldest first, up to the current one. */
  months: string[];
  /** Whether months after the current one are affected too. */
  alsoFuture: boolean;
  tenancies: ImpactTenancy[];
  issuedReports: number;
  /** Figures already shown change (the change starts before today): saving needs a confirmation and reason. */
  changesPast: boolean;
}

/** Today in Europe/Copenhagen as YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: TIME_ZONE }).format(now);
}

/** The calendar months from the month of `from` to the month of `last`, both included (YYYY-MM). */
function monthsBetween(from: string, last: string): string[] {
  const out: string[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7));
  const endKey = last.slice(0, 7);
  for (let key = from.slice(0, 7); key <= endKey; ) {
    out.push(key);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
    key = `${y}-${String(m).padStart(2, '0')}`;
  }
  return out;
}

/** The day before an ISO date. */
function dayBefore(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/**
 * The impact of changing the figures of [from, to) on a property; `quantity` limits it to the flats with a
 * measurement point of that quantity (null: every flat, as for a fixed charge of the whole tenancy).
 */
export async function rateImpact(
  db: Db,
  propertyId: number,
  quantity: string | null,
  from: string,
  to: string | null,
  today = localToday(),
): Promise<RateImpact> {
  const lastDay = to === null || to > today ? today : dayBefore(to);
  const months = from <= lastDay ? monthsBetween(from, lastDay) : [];
  const tenancies = await queryRows<{
    id: number;
    reference: string;
    apartment: string;
    start: string;
    end: string | null;
  }>(
    db,
    sql`SELECT tn.id, tn.tenancy_id AS reference, ap.apartment, tn.start::text AS start, tn."end"::text AS "end"
        FROM tenancies tn JOIN apartments ap ON ap.id = tn.apartment_id
        WHERE ap.property_id = ${propertyId}
          AND tn.start <= ${today}::date
          AND (tn."end" IS NULL OR tn."end" >= ${from}::date)
          ${to === null ? sql`` : sql`AND tn.start < ${to}::date`}
          ${
            quantity === null
              ? sql``
              : sql`AND EXISTS (SELECT 1 FROM measurement_points mp
                     WHERE mp.apartment_id = ap.id AND mp.quantity = ${quantity})`
          }
        ORDER BY ap.apartment, tn.start, tn.id`,
  );
  let issuedReports = 0;
  if (tenancies.length > 0 && months.length > 0) {
    const [row] = await queryRows<{ n: number | string }>(
      db,
      sql`SELECT count(*) AS n FROM monthly_reports
          WHERE tenancy_id IN (${sql.join(
            tenancies.map((t) => sql`${t.id}`),
            sql`, `,
          )})
            AND month >= ${`${months[0]}-01`}::date AND month <= ${`${months[months.length - 1]}-01`}::date`,
    );
    issuedReports = Number(row?.n ?? 0);
  }
  return {
    from,
    to,
    months,
    alsoFuture: to === null || dayBefore(to).slice(0, 7) > today.slice(0, 7),
    tenancies: tenancies.map((t) => ({ ...t, id: Number(t.id) })),
    issuedReports,
    changesPast: from < today,
  };
}

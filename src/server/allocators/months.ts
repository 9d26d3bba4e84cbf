/**
 * Reads a property's allocator figures per calendar month (src/lib/allocators.ts) in one statement: the supply
 * heat meters (property-level heat-energy points), heat of flats without allocators, heat and units of flats
 * with both, all allocator units, and one apartment's own allocator units (the weights of a bucket that spans
 * months). Whole months only, so it reads monthly_rollups (each the sum of its month's daily rollups): one row
 * per point and month. It reads every heat and allocator point of the property; the worker's monthly reports,
 * one per tenancy, would so read the property once per tenancy (apartments² per pass, docs/scale.md), so they ask
 * for `stored` figures: the property's months computed once and kept (propertyMonths.ts).
 */
import { sql } from 'drizzle-orm';
import {
  type AllocatorFactor,
  type AllocatorMethod,
  type AllocatorMonth,
  allocatorFactor,
} from '../../lib/allocators.ts';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import { addMonths } from '../reports/months.ts';
import { type FigureRow, propertyFiguresSql, storedPropertyMonths, toMonth } from './propertyMonths.ts';

export interface AllocatorMonths {
  /** Per month ('YYYY-MM-01'): the property's figures. */
  months: Map<string, AllocatorMonth>;
  /** Per month: the apartment's allocator units (all of its days, whoever lived there). */
  apartmentUnits: Map<string, number>;
  /** The month's factor by the rules, with the property's operator factor as the last resort. */
  factorOf(month: string): AllocatorFactor | null;
  /**
   * The factor of a span of days [from, to) (ISO dates): its months' factors weighted by the apartment's units
   * in each (equal weights without any), so a bucket inside one month gets exactly that month's factor.
   */
  factorBetween(from: string, to: string): { kwhPerUnit: number; methods: AllocatorMethod[] } | null;
}

/** The months from the one holding `from` to the one holding `to` (ISO dates, inclusive). */
export async function readAllocatorMonths(
  db: Db,
  opts: {
    propertyId: number;
    apartmentId: number | null;
    from: string;
    to: string;
    operatorKwhPerUnit: number | null;
    /**
     * Take the property's figures from `property_allocator_months` (computed once per property and month, and
     * stored: propertyMonths.ts) and read only the apartment's own units here. The worker's reports do, so a
     * month-end pass reads each property's points once; it writes, so only on the primary.
     */
    stored?: boolean;
  },
): Promise<AllocatorMonths> {
  if (opts.stored) return storedAllocatorMonths(db, opts);
  const rows = await queryRows<FigureRow & { own_units: string | null }>(
    db,
    propertyFiguresSql(opts.propertyId, monthsBetween(opts.from, opts.to), opts.apartmentId),
  );
  const months = new Map<string, AllocatorMonth>();
  const apartmentUnits = new Map<string, number>();
  for (const r of rows) {
    months.set(r.month, toMonth(r));
    if (r.own_units !== null) apartmentUnits.set(r.month, Number(r.own_units));
  }
  return allocatorMonths(months, apartmentUnits, opts.operatorKwhPerUnit);
}

/** The first days (ISO) of the months from the one holding `from` to the one holding `to`. */
function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let m = `${from.slice(0, 7)}-01`; m <= to; m = addMonths(m, 1)) months.push(m);
  return months;
}

/** readAllocatorMonths with `stored`: the property's stored figures and the apartment's own units. */
async function storedAllocatorMonths(
  db: Db,
  opts: {
    propertyId: number;
    apartmentId: number | null;
    from: string;
    to: string;
    operatorKwhPerUnit: number | null;
  },
): Promise<AllocatorMonths> {
  const months = await storedPropertyMonths(db, opts.propertyId, monthsBetween(opts.from, opts.to));
  const apartmentUnits = new Map<string, number>();
  if (opts.apartmentId !== null) {
    const own = await queryRows<{ month: string; units: string }>(
      db,
      sql`SELECT to_char(d.month, 'YYYY-MM-DD') AS month, sum(d.sum)::text AS units
            FROM monthly_rollups d JOIN measurement_points p ON p.id = d.measurement_point_id
           WHERE p.apartment_id = ${opts.apartmentId} AND p.property_id = ${opts.propertyId}
             AND p.reading_kind = 'register' AND p.quantity = 'hca'
             AND d.month BETWEEN date_trunc('month', ${opts.from}::date)::date
                             AND date_trunc('month', ${opts.to}::date)::date
           GROUP BY 1`,
    );
    for (const r of own) apartmentUnits.set(r.month, Number(r.units));
  }
  return allocatorMonths(months, apartmentUnits, opts.operatorKwhPerUnit);
}

function allocatorMonths(
  months: Map<string, AllocatorMonth>,
  apartmentUnits: Map<string, number>,
  operatorKwhPerUnit: number | null,
): AllocatorMonths {
  const factorOf = (month: string) => allocatorFactor(months.get(month), operatorKwhPerUnit);
  return {
    months,
    apartmentUnits,
    factorOf,
    factorBetween(from, to) {
      const spanned: string[] = [];
      for (let m = `${from.slice(0, 7)}-01`; m < to; m = addMonths(m, 1)) spanned.push(m);
      const factors = spanned.map(factorOf);
      const weights = spanned.map((m) => apartmentUnits.get(m) ?? 0);
      const equal = weights.every((w) => w === 0);
      const used = factors.flatMap((f, i) =>
        equal || weights[i]! > 0 ? [{ f, w: equal ? 1 : weights[i]! }] : [],
      );
      if (used.length === 0 || used.some((u) => u.f === null)) return null;
      const total = used.reduce((sum, u) => sum + u.w, 0);
      const kwhPerUnit = used.reduce((sum, u) => sum + u.f!.kwhPerUnit * u.w, 0) / total;
      return { kwhPerUnit, methods: [...new Set(used.map((u) => u.f!.method))] };
    },
  };
}

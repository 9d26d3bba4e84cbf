/**
 * Heat-cost allocators (hca) in kWh and in cost: the one set of rules the app, the monthly report and the
 * statement follow (docs/domain.md, "Heat-cost allocators in kWh"). Pure.
 *
 * - The kWh per allocator unit is found per calendar month (the billing period's building block), so a month's
 *   estimate never depends on the period asked: a longer period is the sum of its months.
 * - Per month, the first of these that is known decides: the property's supply heat meter (heat into the
 *   building, less the heat metered in flats without allocators, over all allocator units); else the flats that
 *   have both a heat meter and allocators (their heat over their units); else the operator's conversion factor.
 * - Allocator units are never priced beside a heat meter that measures the same heat.
 */

/** How a month's kWh per allocator unit was found; clients translate the code. */
export type AllocatorMethod = 'supply-meter' | 'metered-flats' | 'operator-factor';

/** A property's heat and allocator totals of one month. Null where the property has no such meter. */
export interface AllocatorMonth {
  /** Property-level heat meters (the building's supply), kWh. */
  supplyKwh: number | null;
  /** Heat meters of flats without allocators, kWh. */
  heatOnlyFlatsKwh: number | null;
  /** Heat meters and allocator units of flats that have both. */
  meteredFlatsKwh: number | null;
  meteredFlatsUnits: number | null;
  /** All allocator units of the property. */
  units: number | null;
}

export interface AllocatorFactor {
  method: AllocatorMethod;
  kwhPerUnit: number;
}

/** The kWh per allocator unit of one month, or null when no method applies. */
export function allocatorFactor(
  month: AllocatorMonth | undefined,
  operatorKwhPerUnit: number | null,
): AllocatorFactor | null {
  if (month?.supplyKwh != null && month.units != null && month.units > 0) {
    const allocatorHeat = month.supplyKwh - (month.heatOnlyFlatsKwh ?? 0);
    if (allocatorHeat >= 0) return { method: 'supply-meter', kwhPerUnit: allocatorHeat / month.units };
  }
  if (month?.meteredFlatsKwh != null && month.meteredFlatsUnits != null && month.meteredFlatsUnits > 0)
    return { method: 'metered-flats', kwhPerUnit: month.meteredFlatsKwh / month.meteredFlatsUnits };
  if (operatorKwhPerUnit !== null && operatorKwhPerUnit > 0)
    return { method: 'operator-factor', kwhPerUnit: operatorKwhPerUnit };
  return null;
}

/**
 * Allocator units per month ('YYYY-MM-01') in kWh, month by month: null when a month with units has no factor.
 * `methods` lists the methods used, in order of first use.
 */
export function allocatorKwh(
  unitsByMonth: Readonly<Record<string, number>>,
  factorOf: (month: string) => AllocatorFactor | null,
): { kwh: number | null; methods: AllocatorMethod[]; kwhPerUnit: number | null } {
  let kwh = 0;
  let units = 0;
  const methods: AllocatorMethod[] = [];
  for (const [month, used] of Object.entries(unitsByMonth).sort(([a], [b]) => a.localeCompare(b))) {
    if (used === 0) continue;
    const factor = factorOf(month);
    if (!factor) return { kwh: null, methods: [], kwhPerUnit: null };
    kwh += used * factor.kwhPerUnit;
    units += used;
    if (!methods.includes(factor.method)) methods.push(factor.method);
  }
  return { kwh, methods, kwhPerUnit: units > 0 ? kwh / units : null };
}

/** The pricing rule: allocator units are priced only where no heat meter measures the same heat. */
export function isPricedBeside(quantity: string, otherQuantities: Iterable<string>): boolean {
  if (quantity !== 'hca') return true;
  for (const q of otherQuantities) if (q === 'heat-energy') return false;
  return true;
}

/** The quantity page's view options (consumption or CO₂, per m², last year, weather correction, kWh estimate). */
import { useState } from 'react';
import { isQuantityId, QUANTITIES } from '../../lib/quantities.ts';
import type { Scope } from './quantityScope.ts';
import type { GraphType } from './valueFormat.ts';

/** The quantities the degree-day correction applies to (SPEC §3). */
const HEAT = new Set(['heat-energy', 'heat-volume', 'hca']);

/**
 * Whether the property has a CO₂ factor for the quantity (SPEC §3 co2Factors); total water counts hot and cold
 * water's. Without one (heat-cost allocators never have one) there is no CO₂ to show, so no switch either.
 */
function hasCo2Factor(quantity: string, factorQuantities: readonly string[]): boolean {
  if (factorQuantities.includes(quantity)) return true;
  return (
    quantity === 'total-water-volume' &&
    factorQuantities.some((q) => q === 'hot-water-volume' || q === 'cold-water-volume')
  );
}

/**
 * The options as picked, and what is in effect: a pick the quantity, view or scope does not allow is off.
 * `factorQuantities` is null while the property's CO₂ factors are not known yet: the switch is then off, and
 * `co2Pending` says whether its place is kept (any quantity but heat-cost allocators, which never have a factor),
 * so the options row does not grow under the reader when the factors arrive.
 */
export function useQuantityOptions(
  quantity: string,
  scope: Scope,
  factorQuantities: readonly string[] | null,
) {
  const [graphTypePick, setGraphType] = useState<GraphType>('HOURLY_VALUES');
  const canCo2 = factorQuantities !== null && hasCo2Factor(quantity, factorQuantities);
  const co2Pending = factorQuantities === null && quantity !== 'hca';
  const graphType: GraphType = canCo2 ? graphTypePick : 'HOURLY_VALUES';
  const [normalizedPick, setNormalized] = useState(false);
  const [lastYear, setLastYear] = useState(true);
  const [climate, setClimate] = useState(false);
  const [kwhEstimate, setKwhEstimate] = useState(false);
  const normalizable = isQuantityId(quantity) && QUANTITIES[quantity].normalizable;
  const canClimate = HEAT.has(quantity) && graphType === 'HOURLY_VALUES' && scope.kind === 'unit';
  // Heat-cost allocator units mean little alone; on request the server converts them to a kWh estimate.
  const canEstimate = quantity === 'hca' && graphType === 'HOURLY_VALUES' && scope.kind === 'unit';
  return {
    graphType,
    setGraphType,
    canCo2,
    co2Pending,
    normalizable,
    normalizedPick,
    setNormalized,
    normalized: normalizedPick && normalizable,
    lastYear,
    setLastYear,
    canClimate,
    climate,
    setClimate,
    climateOn: canClimate && climate,
    canEstimate,
    kwhEstimate,
    setKwhEstimate,
    estimateOn: canEstimate && kwhEstimate,
  };
}

/** What useQuantityOptions returns. */
export type QuantityOptionsState = ReturnType<typeof useQuantityOptions>;

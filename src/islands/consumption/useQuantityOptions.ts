/** The quantity page's view options (consumption or CO₂, per m², last year, weather correction, kWh estimate). */
import { useState } from 'react';
import { isQuantityId, QUANTITIES } from '../../lib/quantities.ts';
import type { Scope } from './quantityScope.ts';
import type { GraphType } from './valueFormat.ts';

/** The quantities the degree-day correction applies to (SPEC §3). */
const HEAT = new Set(['heat-energy', 'heat-volume', 'hca']);

/** The options as picked, and what is in effect: a pick the quantity, view or scope does not allow is off. */
export function useQuantityOptions(quantity: string, scope: Scope) {
  const [graphType, setGraphType] = useState<GraphType>('HOURLY_VALUES');
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

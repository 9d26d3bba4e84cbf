/** Which consumption pages a tenancy has, from its meterUnits (SPEC §3 legacy meter kinds). */
import {
  CONSUMPTION_QUANTITIES,
  INDOOR_CLIMATE_QUANTITIES,
  type QuantityId,
  quantityFromLegacyKind,
} from './quantities.ts';

/** The tenancy's consumption quantities in SPEC order, and whether it has indoor-climate sensors. */
export function tenancyQuantities(meterUnits: ReadonlyArray<{ kind: string }>): {
  consumption: QuantityId[];
  climate: boolean;
} {
  const present = new Set(meterUnits.map((m) => quantityFromLegacyKind(m.kind)).filter(Boolean));
  return {
    consumption: CONSUMPTION_QUANTITIES.filter((q) => present.has(q)),
    climate: INDOOR_CLIMATE_QUANTITIES.some((q) => present.has(q)),
  };
}

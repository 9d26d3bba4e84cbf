/**
 * Germany's CO2KostAufG (Kohlendioxidkostenaufteilungsgesetz, 2023): the CO₂ cost of heating a residential
 * building is split between landlord and tenant by the building's emissions per m² of living area and year,
 * in ten stages (the law's annex, §5). The statement must state the stage, the shares and their basis (§7). Pure.
 */

/** The stages: emissions up to below `below` kg CO₂/m²/year give the tenant `tenantPercent` of the CO₂ cost. */
const STAGES: readonly { below: number; tenantPercent: number }[] = [
  { below: 12, tenantPercent: 100 },
  { below: 17, tenantPercent: 90 },
  { below: 22, tenantPercent: 80 },
  { below: 27, tenantPercent: 70 },
  { below: 32, tenantPercent: 60 },
  { below: 37, tenantPercent: 50 },
  { below: 42, tenantPercent: 40 },
  { below: 47, tenantPercent: 30 },
  { below: 52, tenantPercent: 20 },
  { below: Number.POSITIVE_INFINITY, tenantPercent: 5 },
];

export interface Co2CostSplit {
  /** The building's emissions in kg CO₂ per m² of living area and year. */
  kgPerM2Year: number;
  /** 1 (below 12 kg) to 10 (52 kg or more). */
  stage: number;
  /** The stage's lower and upper edge (kg/m²/year); `upTo` null for the last stage. */
  from: number;
  upTo: number | null;
  tenantPercent: number;
  landlordPercent: number;
  /** The tenant's CO₂ cost (their share of the building's by their share of its heating cost), in minor units. */
  tenantCo2Cost: number;
  /** What of it the tenant bears and what the landlord bears (minor units, adding up to tenantCo2Cost). */
  tenantPart: number;
  landlordPart: number;
}

/**
 * The split of one statement. `buildingKg`: the building's CO₂ emissions over the period (the fuel supplier's
 * invoice); `areaM2`: its living area; `days`: the period's length; `co2Cost`: the building's CO₂ cost and
 * `heatShare` the tenant's share of the building's heating cost (0–1). Null for a non-positive area or period.
 */
export function co2CostSplit(input: {
  buildingKg: number;
  areaM2: number;
  days: number;
  co2Cost: number;
  heatShare: number;
}): Co2CostSplit | null {
  const { buildingKg, areaM2, days, co2Cost, heatShare } = input;
  if (!(areaM2 > 0) || !(days > 0) || !(buildingKg >= 0) || !Number.isFinite(buildingKg)) return null;
  // A billing period is normally one year; a shorter or longer one is scaled to a year of 365 days.
  // Rounded to 10⁻⁹ so float noise cannot move a stage edge (12 kg exactly is stage 2).
  const kgPerM2Year = Math.round(((buildingKg / areaM2) * 365 * 1e9) / days) / 1e9;
  const index = STAGES.findIndex((s) => kgPerM2Year < s.below);
  const stage = STAGES[index]!;
  const tenantCo2Cost = Math.round(co2Cost * Math.min(1, Math.max(0, heatShare)));
  const landlordPart = Math.round((tenantCo2Cost * (100 - stage.tenantPercent)) / 100);
  return {
    kgPerM2Year,
    stage: index + 1,
    from: index === 0 ? 0 : STAGES[index - 1]!.below,
    upTo: Number.isFinite(stage.below) ? stage.below : null,
    tenantPercent: stage.tenantPercent,
    landlordPercent: 100 - stage.tenantPercent,
    tenantCo2Cost,
    tenantPart: tenantCo2Cost - landlordPart,
    landlordPart,
  };
}

/** One CO2 comparison: how many of something a number of grams of CO2 equals. */
export interface Co2FunFact {
  id: 'car_km' | 'tree_days' | 'phone_charges' | 'streaming_hours';
  /** Grams of CO2 per one of the thing. */
  gramsPerUnit: number;
  /** i18n key (domain namespace) of the sentence; it takes {{value}}. */
  textKey: `co2.fun_facts.${string}`;
  /** i18n key of the source line. */
  sourceKey: `co2.sources.${string}`;
}

// Figures, rounded; the sources are named in the co2.sources texts and docs/domain.md.
/** The fun-fact catalogue. */
export const CO2_FUN_FACTS: readonly Co2FunFact[] = [
  // EEA: new passenger cars registered in the EU emitted about 110–120 g CO2/km (WLTP) in 2020–2022.
  { id: 'car_km', gramsPerUnit: 120, textKey: 'co2.fun_facts.car_km', sourceKey: 'co2.sources.car_km' },
  // A mature tree takes up about 22 kg CO2 a year (often cited, e.g. by the European Environment Agency), ≈ 60 g a day.
  {
    id: 'tree_days',
    gramsPerUnit: 22_000 / 365,
    textKey: 'co2.fun_facts.tree_days',
    sourceKey: 'co2.sources.tree_days',
  },
  // US EPA Greenhouse Gas Equivalencies Calculator: 8.22 × 10⁻⁶ t CO2 per smartphone charge.
  {
    id: 'phone_charges',
    gramsPerUnit: 8.22,
    textKey: 'co2.fun_facts.phone_charges',
    sourceKey: 'co2.sources.phone_charges',
  },
  // IEA (Kamiya, 2020): about 36 g CO2 per hour of video streaming.
  {
    id: 'streaming_hours',
    gramsPerUnit: 36,
    textKey: 'co2.fun_facts.streaming_hours',
    sourceKey: 'co2.sources.streaming_hours',
  },
];

/** What a number of grams of CO2 equals in each fun fact; empty for a missing or negative amount. */
export function co2FunFacts(grams: number): Array<Co2FunFact & { value: number }> {
  if (!Number.isFinite(grams) || grams < 0) return [];
  return CO2_FUN_FACTS.map((fact) => ({ ...fact, value: grams / fact.gramsPerUnit }));
}

/** Grams of CO2 from a consumption and the property's factor (gramPerQuantityUnit, SPEC §3); NaN-safe. */
export function co2Grams(consumption: number, gramPerQuantityUnit: number): number | null {
  if (!Number.isFinite(consumption) || !Number.isFinite(gramPerQuantityUnit)) return null;
  return consumption * gramPerQuantityUnit;
}

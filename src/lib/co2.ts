/** One CO2 comparison: how many of something a number of grams of CO2 equals. */
export interface Co2FunFact {
  id: 'car_km' | 'tree_days' | 'phone_charges' | 'streaming_hours';
  /** Grams of CO2 per one of the thing. */
  gramsPerUnit: number;
  /** i18n key (domain namespace) of the sentence; it takes {{value}}. */
  textKey: `co2.fun_facts.${Co2FunFact['id']}`;
  /** i18n key of the source line. */
  sourceKey: `co2.sources.${Co2FunFact['id']}`;
}

// Figures, rounded; the sources are named in the co2.sources texts and docs/domain.md.
/** The fun-fact catalogue. */
export const CO2_FUN_FACTS: readonly Co2FunFact[] = [
  // EEA indicator "CO2 performance of new passenger cars in Europe": new cars registered in Europe averaged
  // 114.1 g CO2/km in 2021 and 108.1 g CO2/km in 2022 (WLTP type approval); we use 110 g/km.
  { id: 'car_km', gramsPerUnit: 110, textKey: 'co2.fun_facts.car_km', sourceKey: 'co2.sources.car_km' },
  // Arbor Day Foundation: a mature tree absorbs about 48 lb (≈ 22 kg) of CO2 a year, ≈ 60 g a day.
  {
    id: 'tree_days',
    gramsPerUnit: 22_000 / 365,
    textKey: 'co2.fun_facts.tree_days',
    sourceKey: 'co2.sources.tree_days',
  },
  // US EPA Greenhouse Gas Equivalencies Calculator, calculations and references: 8.22 × 10⁻⁶ t CO2 per smartphone
  // charged.
  {
    id: 'phone_charges',
    gramsPerUnit: 8.22,
    textKey: 'co2.fun_facts.phone_charges',
    sourceKey: 'co2.sources.phone_charges',
  },
  // IEA (Kamiya, 2020, "The carbon footprint of streaming video: fact-checking the headlines", updated
  // 11 Dec 2020): 36 g CO2 for one hour of streaming video in 2019.
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

import { describe, expect, it } from 'vitest';
import { CO2_FUN_FACTS, co2FunFacts, co2Grams } from '../../src/lib/co2.ts';

describe('CO2 fun facts', () => {
  it('turns grams into each comparison', () => {
    const facts = Object.fromEntries(co2FunFacts(12_000).map((f) => [f.id, f.value]));
    expect(facts.car_km).toBeCloseTo(100, 6);
    expect(facts.phone_charges).toBeCloseTo(12_000 / 8.22, 6);
    expect(facts.streaming_hours).toBeCloseTo(12_000 / 36, 6);
    expect(facts.tree_days).toBeCloseTo((12_000 * 365) / 22_000, 6);
  });

  it('has a text and a source key for every fact', () => {
    for (const fact of CO2_FUN_FACTS) {
      expect(fact.textKey).toBe(`co2.fun_facts.${fact.id}`);
      expect(fact.sourceKey).toBe(`co2.sources.${fact.id}`);
      expect(fact.gramsPerUnit).toBeGreaterThan(0);
    }
  });

  it('gives nothing for a missing or negative amount', () => {
    expect(co2FunFacts(Number.NaN)).toEqual([]);
    expect(co2FunFacts(-1)).toEqual([]);
    expect(co2FunFacts(0).every((f) => f.value === 0)).toBe(true);
  });

  it('computes grams from a consumption and a factor', () => {
    expect(co2Grams(100, 120)).toBe(12_000);
    expect(co2Grams(Number.NaN, 120)).toBeNull();
  });
});

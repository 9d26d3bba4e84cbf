import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CO2_FUN_FACTS, co2FunFacts } from '../../src/lib/co2.ts';

describe('CO2 fun facts', () => {
  it('turns grams into each comparison', () => {
    const facts = Object.fromEntries(co2FunFacts(12_000).map((f) => [f.id, f.value]));
    expect(facts.car_km).toBeCloseTo(12_000 / 110, 6);
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
});

describe('CO2 fun-fact sources', () => {
  const sources = (lang: string) =>
    (
      JSON.parse(readFileSync(new URL(`../../locales/${lang}/domain.json`, import.meta.url), 'utf8')) as {
        co2: { sources: Record<string, string> };
      }
    ).co2.sources;

  it('state the figure the code uses, in every language', () => {
    const figures: Record<string, { en: string; nordic: string; grams: number }> = {
      car_km: { en: '110 g/km', nordic: '110 g/km', grams: 110 },
      tree_days: { en: '22 kg', nordic: '22 kg', grams: 22_000 / 365 },
      phone_charges: { en: '8.22 g', nordic: '8,22 g', grams: 8.22 },
      streaming_hours: { en: '36 g', nordic: '36 g', grams: 36 },
    };
    for (const fact of CO2_FUN_FACTS) {
      const figure = figures[fact.id];
      expect(figure, fact.id).toBeDefined();
      expect(fact.gramsPerUnit, fact.id).toBeCloseTo(figure!.grams, 9);
      expect(sources('en')[fact.id], fact.id).toContain(figure!.en);
      expect(sources('da')[fact.id], fact.id).toContain(figure!.nordic);
      expect(sources('nb')[fact.id], fact.id).toContain(figure!.nordic);
    }
  });
});

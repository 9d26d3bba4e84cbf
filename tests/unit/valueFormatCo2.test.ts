import { describe, expect, it } from 'vitest';
import { standaloneFormat, valueFormat } from '../../src/islands/consumption/valueFormat.ts';

describe('standaloneFormat (CO₂ KPI tiles)', () => {
  const co2 = valueFormat('heat-energy', 'CO2', 'en');
  it('writes a card in kg when its main figure reaches 10 kg, and keeps grams for the graph', () => {
    expect(standaloneFormat(co2, 52_340).format(9_000)).toBe('9.0 kg CO₂');
    expect(standaloneFormat(co2, 9_000).format(9_000)).toBe('9,000 g CO₂');
    expect(co2.format(52_340)).toBe('52,340 g CO₂');
    expect(co2.unit).toBe('g CO₂');
  });
  it('leaves other formats alone', () => {
    const heat = valueFormat('heat-energy', 'HOURLY_VALUES', 'en');
    expect(standaloneFormat(heat, 1e9)).toBe(heat);
  });
});

describe('valueFormat: the hca plural of SPEC §9 follows the value as shown', () => {
  it('rounds before choosing the word', () => {
    const en = valueFormat('hca', 'HOURLY_VALUES', 'en');
    expect(en.format(0.4)).toBe('0 units');
    expect(en.format(1.4)).toBe('1 unit');
    expect(en.format(1.6)).toBe('2 units');
    expect(valueFormat('hca', 'HOURLY_VALUES', 'nb').format(1.2)).toBe('1 enhet');
    expect(valueFormat('hca', 'HOURLY_VALUES', 'nb').format(0.2)).toBe('0 enheter');
  });
});

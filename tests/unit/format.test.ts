import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatCo2,
  formatCo2Grams,
  formatDecimalText,
  formatNumber,
  formatQuantity,
  MISSING,
  roundTo,
  unitSymbol,
} from '../../src/lib/format.ts';
import { LANGUAGES } from '../../src/lib/languages.ts';
import { QUANTITY_IDS, type QuantityId } from '../../src/lib/quantities.ts';

describe('formatNumber', () => {
  it('uses en-GB for en and da-DK for da and nb, at most 2 decimals by default', () => {
    expect(formatNumber(1234.567, 'en')).toBe('1,234.57');
    expect(formatNumber(1234.567, 'da')).toBe('1.234,57');
    expect(formatNumber(1234.567, 'nb')).toBe('1.234,57');
    expect(formatNumber(2.5, 'en')).toBe('2.5');
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('shows – for %s', (v) => {
    expect(formatNumber(v, 'en')).toBe(MISSING);
  });

  it('never shows -0', () => {
    expect(formatNumber(-0.001, 'en')).toBe('0');
    expect(formatNumber(-0, 'da')).toBe('0');
  });
});

describe('formatQuantity', () => {
  it('formats the SPEC examples', () => {
    expect(formatQuantity(1234, 'heat-energy', 'en')).toBe('1,234 kWh');
    expect(formatQuantity(1234, 'heat-energy', 'da')).toBe('1.234 kWh');
  });

  it('shows water with 3 fixed decimals', () => {
    expect(formatQuantity(1.2, 'cold-water-volume', 'en')).toBe('1.200 m³');
    expect(formatQuantity(0.12345, 'hot-water-volume', 'da')).toBe('0,123 m³');
    expect(formatQuantity(10, 'total-water-volume', 'nb')).toBe('10,000 m³');
  });

  it('shows electricity, cooling and gas with at least 2 decimals', () => {
    expect(formatQuantity(3, 'electricity-energy', 'en')).toBe('3.00 kWh');
    expect(formatQuantity(3.14259, 'cooling-energy', 'en')).toBe('3.143 kWh');
    expect(formatQuantity(3.1, 'gas-volume', 'da')).toBe('3,10 m³');
  });

  it('shows heat energy, hca, humidity and temperature without decimals', () => {
    expect(formatQuantity(12.6, 'heat-energy', 'en')).toBe('13 kWh');
    expect(formatQuantity(45.4, 'indoor-relative-humidity', 'en')).toBe('45 %');
    expect(formatQuantity(21.5, 'indoor-temperature', 'da')).toBe('22 °C');
    expect(formatQuantity(7.2, 'hca', 'en')).toBe('7 units');
  });

  it('words the hca unit per language, plural in English above 1 or at 0', () => {
    expect(formatQuantity(0, 'hca', 'en')).toBe('0 units');
    expect(formatQuantity(1, 'hca', 'en')).toBe('1 unit');
    expect(formatQuantity(1.4, 'hca', 'en')).toBe('1 unit'); // shown as 1
    expect(formatQuantity(1.6, 'hca', 'en')).toBe('2 units');
    expect(formatQuantity(0.5, 'hca', 'en', { normalized: true })).toBe('0.50 unit / m²');
    expect(formatQuantity(5, 'hca', 'da')).toBe('5 enh');
    expect(formatQuantity(5, 'hca', 'nb')).toBe('5 enheter');
    expect(formatQuantity(1, 'hca', 'nb')).toBe('1 enhet');
    expect(formatQuantity(938, 'hca', 'nb')).toBe('938 enheter');
    expect(unitSymbol('hca', 2, 'en')).toBe('units');
  });

  it('adds "/ m²" to normalised values, with 2 decimals for hca', () => {
    expect(formatQuantity(0.4567, 'hca', 'en', { normalized: true })).toBe('0.46 unit / m²');
    expect(formatQuantity(2.5, 'hca', 'en', { normalized: true })).toBe('2.50 units / m²');
    expect(formatQuantity(85.2, 'heat-energy', 'da', { normalized: true })).toBe('85 kWh / m²');
  });

  it('has a symbol for every quantity', () => {
    for (const q of QUANTITY_IDS)
      for (const lang of LANGUAGES) expect(formatQuantity(1, q, lang)).not.toMatch(/NaN|undefined/);
    expect(unitSymbol('heat-return-temperature', 1, 'en')).toBe('°C');
    // Heat cooling (flow minus return) is a temperature difference: kelvin, whole numbers.
    expect(formatQuantity(30.4, 'heat-cooling', 'en')).toBe('30 K');
  });

  it('shows – for a missing value and throws for an unknown quantity', () => {
    expect(formatQuantity(Number.NaN, 'heat-energy', 'en')).toBe(MISSING);
    expect(() => formatQuantity(1, 'steam' as never, 'en')).toThrow(/Unknown quantity "steam"/);
  });
});

describe('formatCo2Grams', () => {
  it('shows whole grams with g CO₂', () => {
    expect(formatCo2Grams(1234.4, 'en')).toBe('1,234 g CO₂');
    expect(formatCo2Grams(1234.4, 'da')).toBe('1.234 g CO₂');
    expect(formatCo2Grams(Number.NaN, 'en')).toBe(MISSING);
  });
});

describe('formatting round-trips its decimals (property)', () => {
  const parse = (text: string, lang: 'en' | 'da' | 'nb') =>
    Number(lang === 'en' ? text.replaceAll(',', '') : text.replaceAll('.', '').replace(',', '.'));

  it('parses back to the value rounded to the shown decimals', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e9, max: 1e9, noNaN: true }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom('en' as const, 'da' as const, 'nb' as const),
        (value, digits, lang) => {
          const text = formatNumber(value, lang, {
            minimumFractionDigits: digits,
            maximumFractionDigits: digits,
          });
          const fraction = text.split(lang === 'en' ? '.' : ',')[1] ?? '';
          expect(fraction.length).toBe(digits);
          const back = parse(text, lang);
          expect(back).toBe(roundTo(value, digits) === 0 ? 0 : roundTo(value, digits));
          expect(Math.abs(back - value)).toBeLessThanOrEqual(0.5 * 10 ** -digits * (1 + 1e-9));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives every quantity its decimals', () => {
    // Fraction digits shown [min, max]: SPEC §9 where it says, our choice (docs/domain.md) elsewhere.
    const expected: Record<QuantityId, [number, number]> = {
      'heat-energy': [0, 0],
      'heat-volume': [3, 3],
      hca: [0, 0],
      'hot-water-volume': [3, 3],
      'cold-water-volume': [3, 3],
      'electricity-energy': [2, 3],
      'cooling-energy': [2, 3],
      'gas-volume': [2, 3],
      'total-water-volume': [3, 3],
      'heat-flow-temperature': [0, 0],
      'heat-return-temperature': [0, 0],
      'indoor-temperature': [0, 0],
      'indoor-relative-humidity': [0, 0],
      'electricity-frequency': [0, 2],
      'hot-water-flow': [3, 3],
      'gas-pressure': [0, 2],
      'outdoor-temperature': [0, 0],
      'heat-cooling': [0, 0],
      'hot-water-backflow': [3, 3],
      'cold-water-backflow': [3, 3],
      error: [0, 0],
    };
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.constantFrom(...QUANTITY_IDS),
        fc.constantFrom('en' as const, 'da' as const, 'nb' as const),
        (value, q, lang) => {
          const [min, max] = expected[q];
          const text = formatQuantity(value, q, lang);
          const number = text.split(' ')[0] ?? '';
          const fraction = number.split(lang === 'en' ? '.' : ',')[1] ?? '';
          expect(fraction.length).toBeGreaterThanOrEqual(min);
          expect(fraction.length).toBeLessThanOrEqual(max);
          // The shown number is the value rounded to the quantity's maximum decimals.
          const grouping = lang === 'en' ? /,/g : /\./g;
          const back = Number(number.replace(grouping, '').replace(',', '.'));
          expect(back).toBe(roundTo(value, max));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('roundTo', () => {
  const intlRound = (value: number, digits: number) =>
    Number(
      new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, useGrouping: false }).format(value),
    );

  it('rounds exactly as Intl.NumberFormat does (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.double({ min: -1e6, max: 1e6, noNaN: true }),
          // Decimal ties such as 1.0005, whose doubles lie just below or above the tie.
          fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000 + 0.0005),
          fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 100),
        ),
        fc.integer({ min: 0, max: 8 }),
        (value, digits) => {
          expect(roundTo(value, digits)).toBe(intlRound(value, digits));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('rounds the shortest decimal form, ties away from zero, as Intl does', () => {
    expect(roundTo(2.5, 0)).toBe(3);
    expect(roundTo(-2.5, 0)).toBe(-3);
    // The doubles are 1.00499999999999989… and 3458.01549999…: Intl rounds "1.005" and "3458.0155".
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(3458.0155, 3)).toBe(3458.016);
    expect(Object.is(roundTo(-0.001, 2), -0)).toBe(true);
    expect(roundTo(1e21 + 1, 2)).toBe(1e21);
    expect(roundTo(Number.POSITIVE_INFINITY, 2)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('formatCo2', () => {
  it('keeps whole grams below 10 kg and writes kg with one decimal from there, as the report does', () => {
    expect(formatCo2(9_999.4, 'en')).toBe('9,999 g CO₂');
    expect(formatCo2(10_000, 'en')).toBe('10.0 kg CO₂');
    expect(formatCo2(1_234_567, 'en')).toBe('1,234.6 kg CO₂');
    expect(formatCo2(1_234_567, 'da')).toBe('1.234,6 kg CO₂');
    expect(formatCo2(Number.NaN, 'nb')).toBe(MISSING);
  });
});

describe('formatDecimalText', () => {
  it('keeps every digit of a stored reading, in the language', () => {
    expect(formatDecimalText('123456789012.123456', 'en')).toBe('123,456,789,012.123456');
    expect(formatDecimalText('123456789012.123456', 'da')).toBe('123.456.789.012,123456');
    expect(formatDecimalText('0.000123', 'nb')).toBe('0,000123');
    expect(formatDecimalText('-5', 'en')).toBe('-5');
    expect(formatDecimalText('1e3', 'en')).toBe(MISSING);
  });
});

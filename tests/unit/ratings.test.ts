import { describe, expect, it } from 'vitest';
import { formatQuantity } from '../../src/lib/format.ts';
import {
  comparisonBand,
  comparisonFace,
  consumptionRating,
  humidityFace,
  percentOfProperty,
  RATINGS,
  ratingKey,
  temperatureFace,
} from '../../src/lib/ratings.ts';

describe('consumptionRating', () => {
  // Property uses 100 kWh/m²; the tenant's per-m² value is then the percentage.
  it.each([
    [0, 'A+'],
    [54.99, 'A+'],
    [55, 'A'],
    [69.99, 'A'],
    [70, 'B'],
    [84.99, 'B'],
    [85, 'C'],
    [99.99, 'C'],
    [100, 'D'],
    [114.99, 'D'],
    [115, 'E'],
    [129.99, 'E'],
    [130, 'F'],
    [149.99, 'F'],
    [150, 'G'],
    [1000, 'G'],
  ])('%f per m² against a property at 100 rates %s', (tenant, rating) => {
    expect(consumptionRating(tenant, 100)).toBe(rating);
  });

  it('is independent of scale, with exact edges', () => {
    expect(consumptionRating(0.55, 1)).toBe('A');
    expect(consumptionRating(55_000, 100_000)).toBe('A');
    expect(consumptionRating(1.15, 1)).toBe('E');
    expect(consumptionRating(0.7, 1)).toBe('B');
    expect(consumptionRating(11.5, 10)).toBe('E');
  });

  it('has no rating without a usable basis', () => {
    expect(consumptionRating(10, 0)).toBeNull();
    expect(consumptionRating(10, -5)).toBeNull();
    expect(consumptionRating(-1, 100)).toBeNull();
    expect(consumptionRating(Number.NaN, 100)).toBeNull();
    expect(consumptionRating(10, Number.POSITIVE_INFINITY)).toBeNull();
    expect(percentOfProperty(50, 200)).toBe(25);
  });

  it('keys every rating', () => {
    expect(RATINGS.map(ratingKey)).toEqual([
      'ratings.band.A_plus',
      'ratings.band.A',
      'ratings.band.B',
      'ratings.band.C',
      'ratings.band.D',
      'ratings.band.E',
      'ratings.band.F',
      'ratings.band.G',
    ]);
  });
});

describe('comparisonBand', () => {
  it.each([
    [0, 'less'],
    [99.99, 'less'],
    [100, 'more_0_25'],
    [124.99, 'more_0_25'],
    [125, 'more_25_50'],
    [149.99, 'more_25_50'],
    [150, 'more_50_plus'],
    [400, 'more_50_plus'],
  ])('%f against 100 is %s', (value, band) => {
    expect(comparisonBand(value, 100)).toBe(band);
  });

  it('has exact edges at any scale', () => {
    expect(comparisonBand(1.25, 1)).toBe('more_25_50');
    expect(comparisonBand(11.5, 10)).toBe('more_0_25');
    expect(comparisonBand(0.1 + 0.2, 0.3)).toBe('more_0_25');
    expect(comparisonBand(0.3, 0.2)).toBe('more_50_plus');
    expect(comparisonBand(0.6, 0.48)).toBe('more_25_50');
  });

  it('cannot compare with a reference of zero or less, or missing values', () => {
    expect(comparisonBand(10, 0)).toBeNull();
    expect(comparisonBand(0, 0)).toBeNull();
    expect(comparisonBand(Number.NaN, 10)).toBeNull();
    expect(comparisonBand(10, Number.NaN)).toBeNull();
  });

  it('shows smile for less, neutral up to 25 % more, sad from 25 % more', () => {
    expect(comparisonFace('less')).toBe('smile');
    expect(comparisonFace('more_0_25')).toBe('neutral');
    expect(comparisonFace('more_25_50')).toBe('sad');
    expect(comparisonFace('more_50_plus')).toBe('sad');
  });
});

describe('humidityFace (on the shown whole percent)', () => {
  it.each([
    [0, 'sad'],
    [19, 'sad'],
    [19.49, 'sad'],
    [19.5, 'neutral'], // shown as 20
    [20, 'neutral'],
    [39, 'neutral'],
    [39.49, 'neutral'],
    [39.5, 'smile'], // shown as 40
    [40, 'smile'],
    [50, 'smile'],
    [60, 'smile'],
    [60.49, 'smile'], // shown as 60
    [60.5, 'neutral'], // shown as 61
    [61, 'neutral'],
    [70, 'neutral'],
    [70.49, 'neutral'],
    [70.5, 'sad'], // shown as 71
    [71, 'sad'],
    [100, 'sad'],
  ])('humidity %f is %s', (value, face) => {
    expect(humidityFace(value)).toBe(face);
  });

  it('agrees with the number on screen', () => {
    for (let tenths = 0; tenths <= 1000; tenths++) {
      const value = tenths / 10;
      const shown = Number(formatQuantity(value, 'indoor-relative-humidity', 'en').split(' ')[0]);
      expect(humidityFace(value), String(value)).toBe(humidityFace(shown));
    }
  });

  it('has no face for a missing value', () => {
    expect(humidityFace(Number.NaN)).toBeNull();
  });
});

describe('temperatureFace (on the shown whole °C)', () => {
  it.each([
    [-5, 'sad'],
    [14, 'sad'],
    [14.49, 'sad'],
    [14.5, 'neutral'], // shown as 15
    [15, 'neutral'],
    [18, 'neutral'],
    [18.49, 'neutral'],
    [18.5, 'smile'], // shown as 19
    [19, 'smile'],
    [21, 'smile'],
    [22, 'smile'],
    [22.49, 'smile'], // shown as 22
    [22.5, 'neutral'], // shown as 23
    [23, 'neutral'],
    [25, 'neutral'],
    [25.49, 'neutral'],
    [25.5, 'sad'], // shown as 26
    [26, 'sad'],
  ])('%f °C is %s', (value, face) => {
    expect(temperatureFace(value)).toBe(face);
  });

  it('agrees with the number on screen', () => {
    for (let tenths = -100; tenths <= 400; tenths++) {
      const value = tenths / 10;
      const shown = Number(formatQuantity(value, 'indoor-temperature', 'en').split(' ')[0]);
      expect(temperatureFace(value), String(value)).toBe(temperatureFace(shown));
    }
  });

  it('has no face for a missing value', () => {
    expect(temperatureFace(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

import { roundTo } from './format.ts';
import { type Face, QUANTITIES } from './quantities.ts';

/** Consumption ratings, best first (SPEC §1). */
export const RATINGS = ['A+', 'A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
/** A consumption rating from A+ to G. */
export type Rating = (typeof RATINGS)[number];

/**
 * Upper bounds (exclusive) of each band, as the tenant's per-m² consumption in percent of the property's
 * per-m² consumption over the same 365 days. G is everything from 150 % up. See docs/domain.md.
 */
const RATING_BANDS: ReadonlyArray<readonly [Rating, number]> = [
  ['A+', 55],
  ['A', 70],
  ['B', 85],
  ['C', 100],
  ['D', 115],
  ['E', 130],
  ['F', 150],
  ['G', Number.POSITIVE_INFINITY],
];

// Binary floats put 1.15 / 1 × 100 at 114.99999999999999; rounding to 1e-9 % keeps band edges where people expect.
function cleanPercent(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

/** The tenant's per-m² consumption in percent of the property's, or null when it cannot be compared. */
export function percentOfProperty(tenantPerM2: number, propertyPerM2: number): number | null {
  if (!Number.isFinite(tenantPerM2) || !Number.isFinite(propertyPerM2)) return null;
  if (propertyPerM2 <= 0 || tenantPerM2 < 0) return null;
  return cleanPercent((tenantPerM2 / propertyPerM2) * 100);
}

/** The A+–G rating of 365 days of per-m² consumption against the property's; null without a usable basis. */
export function consumptionRating(tenantPerM2: number, propertyPerM2: number): Rating | null {
  const percent = percentOfProperty(tenantPerM2, propertyPerM2);
  if (percent === null) return null;
  for (const [rating, below] of RATING_BANDS) if (percent < below) return rating;
  return 'G';
}

/** The i18n key (domain namespace) of a rating's description. */
export function ratingKey(rating: Rating): `ratings.band.${Exclude<Rating, 'A+'> | 'A_plus'}` {
  return `ratings.band.${rating === 'A+' ? 'A_plus' : rating}`;
}

/** Comparison smiley bands of SPEC §1 and §9. */
export type ComparisonBand = 'less' | 'more_0_25' | 'more_25_50' | 'more_50_plus';

/**
 * The comparison band of a value against a reference (the property or the last period):
 * below the reference → less; [0 %, 25 %) more; [25 %, 50 %) more; 50 % or more. Equal counts as 0 % more.
 * Null when the reference is not positive or either value is not finite.
 */
export function comparisonBand(value: number, reference: number): ComparisonBand | null {
  if (!Number.isFinite(value) || !Number.isFinite(reference) || reference <= 0) return null;
  const increase = cleanPercent(((value - reference) / reference) * 100);
  if (increase < 0) return 'less';
  if (increase < 25) return 'more_0_25';
  if (increase < 50) return 'more_25_50';
  return 'more_50_plus';
}

const FACE_OF_BAND: Record<ComparisonBand, Face> = {
  less: 'smile',
  more_0_25: 'neutral',
  more_25_50: 'sad',
  more_50_plus: 'sad',
};

/** The face shown with a comparison band (SPEC leaves this open; more than 25 % above is sad). */
export function comparisonFace(band: ComparisonBand): Face {
  return FACE_OF_BAND[band];
}

// Faces judge the value the tenant sees: humidity and temperature are shown without decimals (SPEC §9), so the
// value is first rounded to the display decimals the way the display rounds it (half away from zero). Otherwise
// 60.4 % would show as "60 %" with a neutral face although 60 % is in the happy band.
function shown(value: number, quantity: 'indoor-relative-humidity' | 'indoor-temperature'): number {
  return roundTo(value, QUANTITIES[quantity].decimals.max);
}

/**
 * SPEC §9 humidity face, on the shown whole percent: smile for 40–60 (both ends included), neutral for 20–39 and
 * 61–70, sad below 20 or above 70. So raw values in [39.5, 60.5) smile, [19.5, 39.5) and [60.5, 70.5) are
 * neutral, the rest sad. Null for a missing value.
 */
export function humidityFace(percent: number): Face | null {
  if (!Number.isFinite(percent)) return null;
  const whole = shown(percent, 'indoor-relative-humidity');
  if (whole >= 40 && whole <= 60) return 'smile';
  if (whole >= 20 && whole <= 70) return 'neutral';
  return 'sad';
}

/**
 * SPEC §9 temperature face, on the shown whole °C: smile for 19–22 (both ends included), neutral for 15–18 and
 * 23–25, sad below 15 or above 25. So raw values in [18.5, 22.5) smile, [14.5, 18.5) and [22.5, 25.5) are
 * neutral, the rest sad. Null for a missing value.
 */
export function temperatureFace(celsius: number): Face | null {
  if (!Number.isFinite(celsius)) return null;
  const whole = shown(celsius, 'indoor-temperature');
  if (whole >= 19 && whole <= 22) return 'smile';
  if (whole >= 15 && whole <= 25) return 'neutral';
  return 'sad';
}

/**
 * SPEC §9: the ideal indoor temperature is about 21 °C.
 * @public No code reads it yet; docs/domain.md names it as where the rule lives.
 */
export const IDEAL_TEMPERATURE = 21;

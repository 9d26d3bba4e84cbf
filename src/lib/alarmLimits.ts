/**
 * The range an alarm's limit may take, shared by the wizard and the server: a relative humidity is a percentage
 * (0–100), an indoor temperature a room's (−30 to 60 °C), an increase at most 10,000 %, and a consumption
 * threshold at most 1,000,000 of its unit. Anything outside can never be a useful alarm, only a typo.
 */

/** The inclusive range of an alarm limit. */
export interface LimitRange {
  min: number;
  max: number;
}

const RANGES: Record<string, LimitRange> = {
  'indoor-relative-humidity': { min: 0, max: 100 },
  'indoor-temperature': { min: -30, max: 60 },
};
const PERCENT: LimitRange = { min: 0, max: 10_000 };
const AMOUNT: LimitRange = { min: 0, max: 1_000_000 };

/** The range of the limits of an alarm type on a quantity (types as the server spells them, any case). */
export function limitRange(type: string, quantity: string | null): LimitRange {
  const kind = type.toLowerCase();
  if (kind === 'indoor_climate') return RANGES[quantity ?? ''] ?? { min: -1_000, max: 1_000 };
  return kind === 'comparison' ? PERCENT : AMOUNT;
}

/** Whether a limit lies in its range. */
export function inLimitRange(value: number, range: LimitRange): boolean {
  return value >= range.min && value <= range.max;
}

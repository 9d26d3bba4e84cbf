/**
 * What the importer accepts as a reading (docs/domain.md, "Importer bounds"). A row outside these bounds is
 * refused with its line and reason, and the batch writes nothing.
 */

/** Earliest accepted timestamp: 2000-01-01T00:00Z. */
export const EARLIEST_READING_MS = Date.UTC(2000, 0, 1);
/** How far ahead of the server clock a reading may be (clock skew of the collecting system). */
export const FUTURE_TOLERANCE_MS = 3_600_000;
/** Digits a value may have before and after the decimal point (the stored numeric keeps them exactly). */
const MAX_INTEGER_DIGITS = 12;
const MAX_FRACTION_DIGITS = 6;

/**
 * Most a register may advance per hour, per meter, in the quantity's unit. Generous for one apartment and
 * enough for a building's main meter: a larger rise is a misread or a unit mix-up, not consumption.
 * A rise over a longer interval may be this much per hour of the interval; a shorter one, one hour's worth.
 */
export const MAX_PER_HOUR: Readonly<Record<string, number>> = {
  'heat-energy': 1000,
  'heat-volume': 50,
  hca: 100,
  'hot-water-volume': 20,
  'cold-water-volume': 40,
  'total-water-volume': 60,
  'electricity-energy': 1000,
  'cooling-energy': 1000,
  'gas-volume': 200,
  'hot-water-backflow': 20,
  'cold-water-backflow': 40,
  error: 3600,
};

/** Physical range of instantaneous samples, inclusive, in the quantity's unit. */
export const SAMPLE_RANGE: Readonly<Record<string, readonly [number, number]>> = {
  'indoor-temperature': [-40, 70],
  'outdoor-temperature': [-70, 60],
  'indoor-relative-humidity': [0, 100],
  'heat-flow-temperature': [0, 150],
  'heat-return-temperature': [0, 150],
  'heat-cooling': [-50, 150],
  'electricity-frequency': [0, 100],
  'hot-water-flow': [0, 100],
  'gas-pressure': [0, 100],
};

/** Why a value text is not an acceptable decimal, or null when it is (checked after parseDecimal). */
export function precisionProblem(canonical: string): {
  code: 'too_many_integer_digits' | 'too_many_fraction_digits';
  maxDigits: number;
  text: string;
} | null {
  const start = canonical.startsWith('-') ? 1 : 0;
  const point = canonical.indexOf('.');
  const intDigits = (point < 0 ? canonical.length : point) - start;
  if (intDigits > MAX_INTEGER_DIGITS) {
    return {
      code: 'too_many_integer_digits',
      maxDigits: MAX_INTEGER_DIGITS,
      text: `has more than ${MAX_INTEGER_DIGITS} digits before the decimal point`,
    };
  }
  if (point >= 0 && canonical.length - point - 1 > MAX_FRACTION_DIGITS) {
    return {
      code: 'too_many_fraction_digits',
      maxDigits: MAX_FRACTION_DIGITS,
      text: `has more than ${MAX_FRACTION_DIGITS} digits after the decimal point`,
    };
  }
  return null;
}

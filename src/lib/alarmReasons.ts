/** Why the alarm evaluator judged a period as it did (docs/domain.md); the API sends these codes as strings. */
const ALARM_REASONS = [
  'above_threshold',
  'increase',
  'zero',
  'leak',
  'below_minimum',
  'above_maximum',
  'missing_data',
] as const;

export type AlarmReason = (typeof ALARM_REASONS)[number];

/** The reasons a fired period, and so a notification, can carry: a period without data fires nothing. */
export type FiredReason = Exclude<AlarmReason, 'missing_data'>;

/** The reason of a fired period; one without a known reason reads as the threshold's (the oldest rule). */
export function firedReason(x: string | null): FiredReason {
  return x !== 'missing_data' && (ALARM_REASONS as readonly (string | null)[]).includes(x)
    ? (x as FiredReason)
    : 'above_threshold';
}

/** The reason of any judged period, evaluated or not; unknown codes as in firedReason. */
export function alarmReason(x: string | null): AlarmReason {
  return x === 'missing_data' ? x : firedReason(x);
}

/**
 * What an alarm's chart shows per period: the limit the period was judged against and whether it broke it.
 * The same rules as the worker's evaluator (src/server/jobs/evaluator.ts), so the colours match the status.
 */

/** The alarm fields the chart needs. */
export type AlarmRuleShape = {
  type: 'THRESHOLD' | 'COMPARISON' | 'ZERO_CONSUMPTION' | 'INDOOR_CLIMATE';
  threshold: number | null;
  minimum: number | null;
  maximum: number | null;
};

/** One period's value, oldest first. */
export type PeriodValue = { periodStart: string; value: number | null };

/** A limit line: one value per period (null where it has none, e.g. an increase with no period before). */
export type LimitLine = { key: 'threshold' | 'increase' | 'minimum' | 'maximum'; values: (number | null)[] };

// The evaluator's tolerance: a value equal to the limit is not over it.
function above(a: number, b: number): boolean {
  return a - b > 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** The limit lines of an alarm over the periods. */
export function alarmLimitLines(rule: AlarmRuleShape, values: PeriodValue[]): LimitLine[] {
  const flat = (key: LimitLine['key'], v: number | null): LimitLine[] =>
    v === null ? [] : [{ key, values: values.map(() => v) }];
  switch (rule.type) {
    case 'THRESHOLD':
      return flat('threshold', rule.threshold);
    case 'COMPARISON': {
      const factor = 1 + (rule.threshold ?? 0) / 100;
      // Each period is judged against the one before it: the line steps with the previous period's value.
      return [
        {
          key: 'increase',
          values: values.map((_, i) => {
            const previous = i > 0 ? (values[i - 1]?.value ?? null) : null;
            return previous === null ? null : previous * factor;
          }),
        },
      ];
    }
    case 'ZERO_CONSUMPTION':
      return [];
    case 'INDOOR_CLIMATE':
      return [...flat('minimum', rule.minimum), ...flat('maximum', rule.maximum)];
  }
}

/** Per period: true when its value breaks the alarm's rule (or the alarm fired for it), false otherwise. */
export function alarmBreaches(
  rule: AlarmRuleShape,
  values: PeriodValue[],
  firedPeriods: ReadonlySet<string> = new Set(),
): boolean[] {
  const increase = rule.type === 'COMPARISON' ? alarmLimitLines(rule, values)[0]?.values : undefined;
  return values.map(({ periodStart, value }, i) => {
    if (firedPeriods.has(periodStart)) return true;
    if (value === null) return false;
    if (rule.type === 'THRESHOLD') return rule.threshold !== null && above(value, rule.threshold);
    if (rule.type === 'ZERO_CONSUMPTION') return !above(Math.abs(value), 0);
    if (rule.type === 'COMPARISON') {
      const limit = increase?.[i] ?? null;
      return limit !== null && above(value, limit);
    }
    return (
      (rule.minimum !== null && above(rule.minimum, value)) ||
      (rule.maximum !== null && above(value, rule.maximum))
    );
  });
}

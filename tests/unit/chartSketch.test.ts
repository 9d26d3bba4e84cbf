import { describe, expect, it } from 'vitest';
import { niceTicks } from '../../src/islands/consumption/ChartSketch.tsx';

describe('niceTicks (the first-paint chart’s y-axis)', () => {
  it('covers the values with round steps from zero', () => {
    expect(niceTicks(0, 48.7)).toEqual([0, 20, 40, 60]);
    expect(niceTicks(0, 9)).toEqual([0, 2.5, 5, 7.5, 10]);
  });
  it('covers averaged values that do not start at zero', () => {
    const ticks = niceTicks(19.76, 21.08);
    expect(ticks[0]).toBeLessThanOrEqual(19.76);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(21.08);
    expect(ticks).toEqual([19.5, 20, 20.5, 21, 21.5]);
  });
  it('handles negative values, a flat series and no values', () => {
    expect(niceTicks(-5, 10)).toEqual([-5, 0, 5, 10]);
    expect(niceTicks(3, 3)).toEqual([0, 2, 4, 6]);
    expect(niceTicks(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY)).toEqual([0, 1]);
  });
});

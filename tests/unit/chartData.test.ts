import { describe, expect, it } from 'vitest';
import type { TenantGraph } from '../../src/client/operations/tenantGraph.ts';
import { dailySeries, dayLabel } from '../../src/islands/consumption/chartData.ts';

const graph = (values: (number | null)[], quantity = 'heat-energy'): TenantGraph => ({
  timestamps: values.map((_, i) => `2025-10-${String(25 + i).padStart(2, '0')}T00:00:00+02:00`),
  graphs: [
    {
      type: 'HOURLY_VALUES',
      consumption: [{ quantityDescriptor: { quantity, normalized: false, expressedAs: null }, values }],
    },
  ],
});

describe('dailySeries', () => {
  it('labels each bucket by its Copenhagen date and sums the values that are there', () => {
    const series = dailySeries(graph([10.5, null, 4.25]), 'heat-energy', 'en');
    expect(series.labels).toEqual(['25 Oct', '26 Oct', '27 Oct']);
    expect(series.values).toEqual([10.5, null, 4.25]);
    expect(series.total).toBe(14.75);
    expect(series.hasData).toBe(true);
  });

  it('has no data when every value is missing, when the quantity is absent, or before an answer', () => {
    expect(dailySeries(graph([null, null]), 'heat-energy', 'en').hasData).toBe(false);
    expect(dailySeries(graph([1, 2], 'hca'), 'heat-energy', 'en').hasData).toBe(false);
    const none = dailySeries(undefined, 'heat-energy', 'da');
    expect(none).toEqual({ labels: [], values: [], total: 0, hasData: false });
  });

  it('writes day labels in the language, and passes a garbled timestamp through rather than "Invalid Date"', () => {
    expect(dayLabel('2025-03-30T00:00:00+01:00', 'da')).toMatch(/^30\. mar/);
    expect(dayLabel('2025-03-30T00:00:00+01:00', 'nb')).toMatch(/^30\. mar/);
    expect(dayLabel('garbage', 'en')).toBe('garbage');
  });
});

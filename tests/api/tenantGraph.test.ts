import { describe, expect, it } from 'vitest';
import { BEDROOM_TEMP, dataHoursOf, HEAT_B, heatA, livingRoomTemp } from './helpers/fixtures.ts';
import { fx, graph, setUpGraphFixture, values } from './helpers/tenantGraph.ts';

setUpGraphFixture();

/** Apartment A's heat over local dates [from, to), within Alice's tenancy (from 2025-03-01). */
const heatAOver = (from: string, to: string) =>
  dataHoursOf(from < '2025-03-01' ? '2025-03-01' : from, to).reduce((sum, h) => sum + heatA(h), 0);

describe('tenantGraph buckets and sums', () => {
  it('HOUR over the spring DST change: 24 + 23 buckets, offsets switch, values per hour', async () => {
    const r = await values({
      resolution: 'HOUR',
      periodBegin: '2025-03-29T00:00',
      periodEnd: '2025-03-31T00:00',
    });
    expect(r.timestamps).toHaveLength(47);
    expect(r.timestamps[0]).toBe('2025-03-29T00:00:00+01:00');
    expect(r.timestamps).toContain('2025-03-30T01:00:00+01:00');
    expect(r.timestamps).not.toContain('2025-03-30T02:00:00+01:00');
    expect(r.timestamps).toContain('2025-03-30T03:00:00+02:00');
    expect(r.timestamps.at(-1)).toBe('2025-03-30T23:00:00+02:00');
    const expected = dataHoursOf('2025-03-29', '2025-03-31').map(heatA);
    expect(r.values).toEqual(expected);
  });

  it('DAY totals equal the sum of HOUR values; DST days hold 23 and 25 hours', async () => {
    for (const [from, to, dstDay, hours] of [
      ['2025-03-29', '2025-03-31', '2025-03-30', 23],
      ['2025-10-25', '2025-10-27', '2025-10-26', 25],
    ] as const) {
      const hourly = await values({
        resolution: 'HOUR',
        periodBegin: `${from}T00:00`,
        periodEnd: `${to}T00:00`,
      });
      const daily = await values({
        resolution: 'DAY',
        periodBegin: `${from}T00:00`,
        periodEnd: `${to}T00:00`,
      });
      expect(daily.timestamps).toHaveLength(2);
      expect(hourly.timestamps).toHaveLength(24 + hours);
      const hourSum = hourly.values.reduce<number>((s, v) => s + (v ?? 0), 0);
      expect(daily.values[0]! + daily.values[1]!).toBe(hourSum);
      const dstIndex = daily.timestamps.findIndex((t) => t.startsWith(dstDay));
      expect(daily.values[dstIndex]).toBe(
        heatAOver(dstDay, dstDay === '2025-03-30' ? '2025-03-31' : '2025-10-27'),
      );
      expect(
        dataHoursOf(
          dstDay,
          dstDay.replace(/\d\d$/, (d) => String(Number(d) + 1)),
        ),
      ).toHaveLength(hours);
    }
    const autumn = await values({
      resolution: 'HOUR',
      periodBegin: '2025-10-26T00:00',
      periodEnd: '2025-10-27T00:00',
    });
    expect(autumn.timestamps).toHaveLength(25);
    expect(autumn.timestamps).toContain('2025-10-26T02:00:00+02:00');
    expect(autumn.timestamps).toContain('2025-10-26T02:00:00+01:00');
  });

  it('WEEK buckets start on Monday (ISO weeks) and sum their days; the first is clipped to the period', async () => {
    const r = await values({
      resolution: 'WEEK',
      periodBegin: '2025-03-05T00:00',
      periodEnd: '2025-03-31T00:00',
    });
    expect(r.timestamps).toEqual([
      '2025-03-03T00:00:00+01:00',
      '2025-03-10T00:00:00+01:00',
      '2025-03-17T00:00:00+01:00',
      '2025-03-24T00:00:00+01:00',
    ]);
    expect(r.values).toEqual([
      heatAOver('2025-03-05', '2025-03-10'),
      heatAOver('2025-03-10', '2025-03-17'),
      heatAOver('2025-03-17', '2025-03-24'),
      heatAOver('2025-03-24', '2025-03-31'),
    ]);
  });

  it('MONTH and YEAR: nulls where there is no data, clipped to the tenancy start', async () => {
    const r = await values({
      resolution: 'MONTH',
      periodBegin: '2025-01-01T00:00',
      periodEnd: '2026-01-01T00:00',
    });
    expect(r.timestamps).toHaveLength(12);
    expect(r.timestamps[2]).toBe('2025-03-01T00:00:00+01:00');
    expect(r.timestamps[3]).toBe('2025-04-01T00:00:00+02:00');
    // February has data, but it was the previous tenant's.
    expect(r.values).toEqual([
      null,
      null,
      heatAOver('2025-03-01', '2025-04-01'),
      heatAOver('2025-04-01', '2025-05-01'),
      null,
      null,
      null,
      null,
      null,
      heatAOver('2025-10-01', '2025-11-01'),
      heatAOver('2025-11-01', '2025-12-01'),
      null,
    ]);
    const year = await values({
      resolution: 'YEAR',
      periodBegin: '2025-01-01T00:00',
      periodEnd: '2026-01-01T00:00',
    });
    expect(year.timestamps).toEqual(['2025-01-01T00:00:00+01:00']);
    expect(year.values).toEqual([heatAOver('2025-01-01', '2026-01-01')]);
  });

  it('a partial range is widened to whole buckets, clipped to the period and marked partial', async () => {
    const r = await values({
      resolution: 'MONTH',
      periodBegin: '2025-02-15T10:30',
      periodEnd: '2025-03-20T00:00',
    });
    expect(r.timestamps).toEqual(['2025-02-01T00:00:00+01:00', '2025-03-01T00:00:00+01:00']);
    expect(r.values).toEqual([null, heatAOver('2025-03-01', '2025-03-20')]);
    expect(r.partial).toEqual([true, true]);
  });

  it('the previous tenant sees only their own days', async () => {
    const r = await values(
      { resolution: 'DAY', periodBegin: '2025-02-26T00:00', periodEnd: '2025-03-03T00:00' },
      'previous',
    );
    expect(r.values[0]).toBe(dataHoursOf('2025-02-26', '2025-02-27').reduce((s, h) => s + heatA(h), 0));
    expect(r.values.slice(3)).toEqual([null, null]);
    const month = await values(
      { resolution: 'MONTH', periodBegin: '2025-02-01T00:00', periodEnd: '2025-04-01T00:00' },
      'previous',
    );
    expect(month.values[0]).toBe(dataHoursOf('2025-02-01', '2025-03-01').reduce((s, h) => s + heatA(h), 0));
    expect(month.values[1]).toBeNull();
    // And the current tenant none of the previous tenant's days.
    const alice = await values({
      resolution: 'DAY',
      periodBegin: '2025-02-26T00:00',
      periodEnd: '2025-03-03T00:00',
    });
    expect(alice.values.slice(0, 3)).toEqual([null, null, null]);
    expect(alice.values[3]).toBe(heatAOver('2025-03-01', '2025-03-02'));
  });

  it('an empty range gives one null per bucket', async () => {
    const r = await values({
      resolution: 'DAY',
      periodBegin: '2025-06-01T00:00',
      periodEnd: '2025-06-08T00:00',
    });
    expect(r.timestamps).toHaveLength(7);
    expect(r.values).toEqual([null, null, null, null, null, null, null]);
  });

  it('averages the rooms of a unit for indoor temperature (sum of sums over sum of counts)', async () => {
    const r = await values({
      resolution: 'DAY',
      periodBegin: '2025-03-30T00:00',
      periodEnd: '2025-03-31T00:00',
      quantities: ['indoor-temperature'],
    });
    const hours = dataHoursOf('2025-03-30', '2025-03-31');
    const expected = hours.reduce((s, h) => s + livingRoomTemp(h) + BEDROOM_TEMP, 0) / (2 * hours.length);
    expect(r.values[0]).toBeCloseTo(expected, 9);
    const monthly = await values({
      resolution: 'MONTH',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
      quantities: ['indoor-temperature'],
    });
    const march = dataHoursOf('2025-03-01', '2025-04-01');
    const marchAvg = march.reduce((s, h) => s + livingRoomTemp(h) + BEDROOM_TEMP, 0) / (2 * march.length);
    expect(monthly.values[0]).toBeCloseTo(marchAvg, 9);
  });

  it('MPOINT objects give one point, with its details', async () => {
    const r = await graph({
      resolution: 'HOUR',
      periodBegin: '2025-03-10T00:00',
      periodEnd: '2025-03-10T03:00',
      objects: [{ kind: 'MPOINT', id: fx.points.livingRoom }],
      quantities: ['indoor-temperature'],
    });
    expect(r.errors).toBeUndefined();
    const series = r.data!.tenantGraph.graphs[0]!;
    expect(series.object).toMatchObject({
      id: String(fx.points.livingRoom),
      kind: 'MPOINT',
      measurementPoint: { room: 'Living room' },
    });
    expect(series.consumption[0]!.values).toEqual(
      dataHoursOf('2025-03-10', '2025-03-11').slice(0, 3).map(livingRoomTemp),
    );
  });

  it('normalized divides by the unit area; CO2 multiplies by the factor; COST by the day price', async () => {
    const range = { resolution: 'DAY', periodBegin: '2025-03-14T00:00', periodEnd: '2025-03-16T00:00' };
    const plain = [heatAOver('2025-03-14', '2025-03-15'), heatAOver('2025-03-15', '2025-03-16')];
    const normalized = await graph({ ...range, normalized: true });
    expect(normalized.data!.tenantGraph.graphs[0]!.consumption[0]!.quantityDescriptor.normalized).toBe(true);
    expect(normalized.data!.tenantGraph.graphs[0]!.consumption[0]!.values).toEqual(plain.map((v) => v / 80));
    const co2 = await graph({ ...range, graphType: 'CO2' });
    expect(co2.data!.tenantGraph.graphs[0]!.consumption[0]!.quantityDescriptor.expressedAs).toBe('co2');
    expect(co2.data!.tenantGraph.graphs[0]!.consumption[0]!.values).toEqual(plain.map((v) => v * 100));
    const cost = await values({ ...range, graphType: 'COST' });
    expect(cost.values).toEqual([plain[0]! * 0.5, plain[1]! * 1.0]);
    const monthlyCost = await values({
      resolution: 'MONTH',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
      graphType: 'COST',
    });
    expect(monthlyCost.values[0]).toBe(
      heatAOver('2025-03-01', '2025-03-15') * 0.5 + heatAOver('2025-03-15', '2025-04-01'),
    );
  });

  it("another tenant's unit sees its own data", async () => {
    const r = await values(
      {
        resolution: 'DAY',
        periodBegin: '2025-03-10T00:00',
        periodEnd: '2025-03-11T00:00',
        objects: [{ kind: 'UNIT', id: fx.apartmentB }],
      },
      'bob',
    );
    expect(r.values).toEqual([24 * HEAT_B]);
  });
});

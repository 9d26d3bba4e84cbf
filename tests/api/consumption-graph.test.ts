/**
 * tenantGraph against an exactly known dataset (tests/api/consumption.fixture.ts): sums across resolutions and DST
 * days, property figures, related series, cost across a price change, gaps and partial buckets, the hca kWh
 * estimate, degree days and the climate correction.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { todayInCopenhagen } from '../../src/lib/periods.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { AREA, HCA, HEAT_C } from './consumption.fixture.ts';
import { errorCode } from './helpers/api.ts';
import {
  database,
  day,
  fx,
  graph,
  heatAOver,
  hoursIn,
  nextDay,
  related,
  series,
  setUpConsumptionFixture,
  sum,
} from './helpers/consumption.ts';
import { HEAT_B, heatA, hoursOf } from './helpers/fixtures.ts';

setUpConsumptionFixture();

describe('tenantGraph sums across resolutions', () => {
  it('hours sum to the day, days to the month; DST days have 23 and 25 hourly buckets', async () => {
    const spring = await series({
      resolution: 'HOUR',
      periodBegin: '2025-03-30T00:00',
      periodEnd: '2025-03-31T00:00',
    });
    const autumn = await series({
      resolution: 'HOUR',
      periodBegin: '2025-10-26T00:00',
      periodEnd: '2025-10-27T00:00',
    });
    expect(spring.timestamps).toHaveLength(23);
    expect(autumn.timestamps).toHaveLength(25);
    const springDay = await series(day('2025-03-30'));
    expect(springDay.s.values[0]).toBe(sum(spring.s.values as number[]));
    expect(springDay.s.values[0]).toBe(heatAOver('2025-03-30', '2025-03-31'));
    const days = await series({
      resolution: 'DAY',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
    });
    const month = await series({
      resolution: 'MONTH',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
    });
    expect(days.timestamps).toHaveLength(31);
    expect(month.s.values[0]).toBe(sum(days.s.values as number[]));
    expect(month.s.values[0]).toBe(heatAOver('2025-03-01', '2025-04-01'));
  });

  it('a bucket with no readings is null, never 0; closed buckets are not partial, an open one is', async () => {
    const r = await series({
      resolution: 'DAY',
      periodBegin: '2025-04-04T00:00',
      periodEnd: '2025-04-08T00:00',
    });
    expect(r.s.values).toEqual([
      heatAOver('2025-04-04', '2025-04-05'),
      heatAOver('2025-04-05', '2025-04-06'),
      null,
      null,
    ]);
    expect(r.partial).toEqual([false, false, false, false]);
    const today = todayInCopenhagen().toString();
    const open = await series(day(today));
    expect(open.partial).toEqual([true]);
    expect(open.s.values).toEqual([null]);
  });
});

describe('tenantGraph objects and related series', () => {
  /** The property's heat per m² on a day when A, B and C all have data. */
  const propertyPerM2 = (d: string) =>
    (heatAOver(d, nextDay(d)) + (HEAT_B + HEAT_C) * hoursIn(d, nextDay(d))) / (AREA.a + AREA.b + AREA.c);

  it('PROPERTY is the per-m² average, or scaled to one of my units; also as a related series of my unit', async () => {
    const perM2 = await series({
      ...day('2025-03-10'),
      objects: [{ kind: 'PROPERTY', id: String(fx.propertyId) }],
    });
    expect(perM2.s.quantityDescriptor.normalized).toBe(true);
    expect(perM2.s.values[0]).toBeCloseTo(propertyPerM2('2025-03-10'), 6);
    expect(perM2.graphs[0]!.object).toEqual({ id: String(fx.propertyId), kind: 'PROPERTY' });
    const scaled = await series({
      ...day('2025-03-10'),
      objects: [{ kind: 'PROPERTY', id: String(fx.propertyId), scaleToUnitId: String(fx.apartmentA) }],
    });
    expect(scaled.s.quantityDescriptor.normalized).toBe(false);
    expect(scaled.s.values[0]).toBeCloseTo(propertyPerM2('2025-03-10') * AREA.a, 6);
    const mine = await series({ ...day('2025-03-10'), related: ['PROPERTY'] });
    expect(related(mine.s, 'PROPERTY')![0]).toBeCloseTo(propertyPerM2('2025-03-10') * AREA.a, 6);
    const normalized = await series({ ...day('2025-03-10'), related: ['PROPERTY'], normalized: true });
    expect(normalized.s.values[0]).toBeCloseTo(heatAOver('2025-03-10', '2025-03-11') / AREA.a, 9);
    expect(related(normalized.s, 'PROPERTY')![0]).toBeCloseTo(propertyPerM2('2025-03-10'), 6);
  });

  it('PROPERTY at HOUR is the hour per m² of the apartments with data', async () => {
    const r = await series({
      resolution: 'HOUR',
      periodBegin: '2025-03-10T12:00',
      periodEnd: '2025-03-10T13:00',
      objects: [{ kind: 'PROPERTY', id: String(fx.propertyId) }],
    });
    const [hour] = hoursOf('2025-03-10', '2025-03-11').slice(12, 13);
    expect(r.s.values[0]).toBeCloseTo((heatA(hour!) + HEAT_B + HEAT_C) / 200, 9);
  });

  it('LAST_PERIOD and LAST_YEAR align bucket by bucket, and stay inside my tenancy', async () => {
    const r = await series({
      resolution: 'DAY',
      periodBegin: '2025-03-10T00:00',
      periodEnd: '2025-03-12T00:00',
      related: ['LAST_PERIOD', 'LAST_YEAR'],
    });
    expect(related(r.s, 'LAST_PERIOD')).toEqual([
      heatAOver('2025-03-08', '2025-03-09'),
      heatAOver('2025-03-09', '2025-03-10'),
    ]);
    expect(related(r.s, 'LAST_YEAR')).toEqual([null, null]);
    // 2 March's previous period is 28 February: the previous tenant's data, so a gap for Alice.
    const edge = await series({ ...day('2025-03-02'), related: ['LAST_PERIOD'] });
    expect(related(edge.s, 'LAST_PERIOD')).toEqual([heatAOver('2025-03-01', '2025-03-02')]);
    const before = await series({ ...day('2025-03-01'), related: ['LAST_PERIOD'] });
    expect(related(before.s, 'LAST_PERIOD')).toEqual([null]);
  });

  it('SOURCE is the property’s own points (outdoor temperature), clipped to my tenancy', async () => {
    const r = await series({
      resolution: 'DAY',
      periodBegin: '2025-02-27T00:00',
      periodEnd: '2025-03-03T00:00',
      objects: [{ kind: 'SOURCE', id: String(fx.propertyId) }],
      quantities: ['outdoor-temperature', 'heat-energy'],
    });
    expect(r.s.values).toEqual([null, null, 3.125, 3.125]);
    expect(r.graphs[0]!.consumption[1]!.values).toEqual([null, null, null, null]);
  });

  it('COST multiplies by the price valid on each day, across a price change', async () => {
    const r = await series({
      graphType: 'COST',
      resolution: 'DAY',
      periodBegin: '2025-03-14T00:00',
      periodEnd: '2025-03-16T00:00',
    });
    expect(r.s.values).toEqual([
      heatAOver('2025-03-14', '2025-03-15') * 0.5,
      heatAOver('2025-03-15', '2025-03-16') * 1,
    ]);
    const month = await series({
      graphType: 'COST',
      resolution: 'MONTH',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
    });
    const expected = heatAOver('2025-03-01', '2025-03-15') * 0.5 + heatAOver('2025-03-15', '2025-04-01');
    expect(month.s.values[0]).toBeCloseTo(expected, 9);
  });

  it('CO2 uses the property factor (100 g/kWh)', async () => {
    const r = await series({ ...day('2025-03-10'), graphType: 'CO2' });
    expect(r.s.quantityDescriptor.expressedAs).toBe('co2');
    expect(r.s.values[0]).toBeCloseTo(heatAOver('2025-03-10', '2025-03-11') * 100, 9);
  });

  it('hca: a kWh estimate from the property heat per allocator unit', async () => {
    const r = await series({ ...day('2025-03-10'), quantities: ['hca'], hcaKwhEstimate: true });
    const hours = hoursIn('2025-03-10', '2025-03-11');
    const units = (HCA.aLiving + HCA.aBedroom) * hours;
    expect(r.s.values[0]).toBeCloseTo(units, 9);
    // Every flat here has a heat meter and allocators: March's heat over March's units, whatever day is asked.
    const march = hoursIn('2025-03-01', '2025-04-01');
    const propertyHeat = heatAOver('2025-03-01', '2025-04-01') + (HEAT_B + HEAT_C) * march;
    const propertyUnits = (HCA.aLiving + HCA.aBedroom + HCA.b + HCA.c) * march;
    expect(related(r.s, 'KWH_ESTIMATE')![0]).toBeCloseTo((units * propertyHeat) / propertyUnits, 6);
    expect(r.s.kwhEstimateMethod).toBe('metered-flats');
  });
});

describe('degree days and climate correction', () => {
  it('stores heating degree days (base 17 °C) per day from the outdoor temperature', async () => {
    const rows = await queryRows<{ day: string; dd: string; hours: number }>(
      database.db,
      sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, degree_days::text AS dd, hours FROM property_degree_days
          WHERE property_id = ${fx.propertyId} AND day IN ('2025-03-10', '2025-03-30', '2025-03-31', '2025-02-21') ORDER BY day`,
    );
    expect(rows.map((r) => [r.day, Number(r.dd), Number(r.hours)])).toEqual([
      ['2025-02-21', 7, 24],
      ['2025-03-10', 13.875, 24],
      ['2025-03-30', 13.875, 23],
      ['2025-03-31', 13.75, 24],
    ]);
  });

  it('a month whose degree days equal the normal is unchanged by the normal-year correction', async () => {
    const r = await series({
      resolution: 'MONTH',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
      climateCorrection: { hotWaterShare: 0.3 },
    });
    expect(r.s.climateCorrection).toMatchObject({ applied: 'DEGREE_DAYS', reason: null, hotWaterShare: 0.3 });
    expect(r.s.climateCorrection!.degreeDays).toBeCloseTo(430, 9);
    // The published normal (docs/domain.md): 421 degree days in March.
    expect(r.s.climateCorrection!.normalDegreeDays).toBeCloseTo(421, 9);
    // Corrected day by day: the month is the sum of its corrected days.
    const days = await series({
      resolution: 'DAY',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-04-01T00:00',
      climateCorrection: { hotWaterShare: 0.3 },
    });
    const dayTotal = sum(related(days.s, 'CLIMATE_NORMAL_YEAR')! as number[]);
    expect(related(r.s, 'CLIMATE_NORMAL_YEAR')![0]).toBeCloseTo(dayTotal, 6);
    expect(related(r.s, 'CLIMATE_NORMAL_YEAR')![0]).toBeLessThan(r.s.values[0]!);
  });

  it('a warmer day is corrected up on the space-heating share only', async () => {
    const r = await series(
      {
        ...day('2025-02-21'),
        objects: [{ kind: 'UNIT', id: String(fx.apartmentB) }],
        climateCorrection: { hotWaterShare: 0.25 },
      },
      'bob',
    );
    const normal = 421 / 28;
    const v = HEAT_B * 24;
    expect(related(r.s, 'DEGREE_DAYS')).toEqual([7]);
    expect(related(r.s, 'NORMAL_DEGREE_DAYS')![0]).toBeCloseTo(normal, 9);
    expect(related(r.s, 'CLIMATE_NORMAL_YEAR')![0]).toBeCloseTo(v * (0.25 + 0.75 * (normal / 7)), 9);
  });

  it('an hour gets its share of its day’s degree days (1/23 on the DST day); hours add up to the day; a day without degree days is not corrected', async () => {
    const r = await series({
      resolution: 'HOUR',
      periodBegin: '2025-03-10T12:00',
      periodEnd: '2025-03-10T14:00',
      climateCorrection: {},
    });
    expect(related(r.s, 'DEGREE_DAYS')).toEqual([13.875 / 24, 13.875 / 24]);
    const dst = await series({
      resolution: 'HOUR',
      periodBegin: '2025-03-30T00:00',
      periodEnd: '2025-03-31T00:00',
      climateCorrection: {},
    });
    expect(related(dst.s, 'DEGREE_DAYS')).toHaveLength(23);
    expect(sum(related(dst.s, 'DEGREE_DAYS') as number[])).toBeCloseTo(13.875, 9);
    const dstDay = await series({ ...day('2025-03-30'), climateCorrection: {} });
    expect(sum(related(dst.s, 'CLIMATE_NORMAL_YEAR') as number[])).toBeCloseTo(
      related(dstDay.s, 'CLIMATE_NORMAL_YEAR')![0]!,
      9,
    );
    // 6 April has no outdoor temperature: its bucket has no degree days and no corrected value.
    const gap = await series({
      resolution: 'DAY',
      periodBegin: '2025-04-05T00:00',
      periodEnd: '2025-04-07T00:00',
      climateCorrection: {},
    });
    // 6 April has no readings at all: nothing measured goes uncorrected, so the correction stands.
    expect(related(gap.s, 'DEGREE_DAYS')).toEqual([7, null]);
    expect(gap.s.values[1]).toBeNull();
    expect(related(gap.s, 'CLIMATE_NORMAL_YEAR')![1]).toBeNull();
    expect(gap.s.climateCorrection!.applied).toBe('DEGREE_DAYS');
  });

  it('reports why no correction applied', async () => {
    const notHeat = await series({
      ...day('2025-03-10'),
      quantities: ['indoor-temperature'],
      climateCorrection: {},
    });
    expect(notHeat.s.climateCorrection).toMatchObject({ applied: 'NONE', reason: 'not_heating_quantity' });
    const noWeather = await series({ ...day('2025-05-10'), climateCorrection: {} });
    expect(noWeather.s.climateCorrection!.applied).toBe('NONE');
    expect(noWeather.s.climateCorrection!.reason).toBe('degree_days_missing');
    const bad = await graph({ ...day('2025-03-10'), climateCorrection: { hotWaterShare: 1.5 } });
    expect(errorCode(bad)).toBe('BAD_USER_INPUT');
  });
});

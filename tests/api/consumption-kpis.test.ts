import { describe, expect, it } from 'vitest';
import { todayInCopenhagen } from '../../src/lib/periods.ts';
import { AREA, HCA, HEAT_C } from './consumption.fixture.ts';
import { gql } from './helpers/api.ts';
import {
  api,
  daysOf,
  fx,
  heatAOver,
  hoursIn,
  kpis,
  nextDay,
  related,
  series,
  setUpConsumptionFixture,
  sum,
  TABLE,
  tokens,
} from './helpers/consumption.ts';
import { HEAT_B } from './helpers/fixtures.ts';

setUpConsumptionFixture();

describe('unitQuantityKpis', () => {
  const propertyMarchPerM2 = () =>
    sum(
      daysOf('2025-03-01', '2025-04-01').map(
        (d) => (heatAOver(d, nextDay(d)) + (HEAT_B + HEAT_C) * hoursIn(d, nextDay(d))) / 200,
      ),
    );

  it('total, previous period, previous year and property comparison for March', async () => {
    const r = await kpis({ periodBegin: '2025-03-01', periodEnd: '2025-03-31', climateCorrection: {} });
    expect(r.errors).toBeUndefined();
    const [k] = r.data!.unitQuantityKpis;
    expect(k!.total).toBe(HEAT_B * 743);
    // 29 January to 28 February: data from 20 February only.
    expect(k!.previousPeriod).toBe(HEAT_B * 24 * 9);
    expect(k!.previousYear).toBeNull();
    expect(k!.propertyComparison).toBeCloseTo(propertyMarchPerM2() * AREA.b, 6);
    expect(k!.partial).toBe(false);
    expect(k!.meters).toHaveLength(1);
    expect(k!.meters[0]!.value).toBe(HEAT_B * 743);
    expect(k!.rooms).toEqual([]);
    expect(k!.climateCorrection).toMatchObject({ applied: 'DEGREE_DAYS' });
    // The same day-by-day correction as the graph's: equal to its March bar.
    const month = await series(
      {
        resolution: 'MONTH',
        periodBegin: '2025-03-01T00:00',
        periodEnd: '2025-04-01T00:00',
        objects: [{ kind: 'UNIT', id: String(fx.apartmentB) }],
        climateCorrection: {},
      },
      'bob',
    );
    expect(k!.totalNormalYear).toBeCloseTo(related(month.s, 'CLIMATE_NORMAL_YEAR')![0]!, 6);
    expect(k!.previousYearClimateCorrected).toBeNull();
  });

  it('COST across the price change equals consumption times the day’s price', async () => {
    const r = await kpis({ periodBegin: '2025-03-10', periodEnd: '2025-03-20', graphType: 'COST' });
    const expected =
      HEAT_B * (hoursIn('2025-03-10', '2025-03-15') * 0.5 + hoursIn('2025-03-15', '2025-03-21') * 1);
    expect(r.data!.unitQuantityKpis[0]!.total).toBeCloseTo(expected, 9);
  });

  it('hca rooms and meters, with a kWh estimate', async () => {
    const r = await kpis(
      {
        unitId: String(fx.apartmentA),
        quantities: ['hca'],
        periodBegin: '2025-03-10',
        periodEnd: '2025-03-10',
        hcaKwhEstimate: true,
      },
      'alice',
    );
    expect(r.errors).toBeUndefined();
    const [k] = r.data!.unitQuantityKpis;
    expect(k!.total).toBe((HCA.aLiving + HCA.aBedroom) * 24);
    expect(k!.rooms).toEqual([
      { label: 'Bedroom', value: HCA.aBedroom * 24 },
      { label: 'Living room', value: HCA.aLiving * 24 },
    ]);
    expect(k!.meters.map((m) => m.value)).toEqual([HCA.aBedroom * 24, HCA.aLiving * 24]);
    // March's kWh per unit (every flat has both meters), not the asked day's.
    const march = hoursIn('2025-03-01', '2025-04-01');
    const heat = heatAOver('2025-03-01', '2025-04-01') + (HEAT_B + HEAT_C) * march;
    expect(k!.kwhEstimate).toBeCloseTo(
      (k!.total! * heat) / ((HCA.aLiving + HCA.aBedroom + HCA.b + HCA.c) * march),
      6,
    );
    expect(k!.kwhEstimateMethod).toBe('metered-flats');
  });

  it('a period still running is partial', async () => {
    const today = todayInCopenhagen().toString();
    const r = await kpis({ periodBegin: today, periodEnd: today });
    expect(r.data!.unitQuantityKpis[0]!.partial).toBe(true);
    expect(r.data!.unitQuantityKpis[0]!.total).toBeNull();
  });
});

describe('tenantTable', () => {
  it('rows per room with the last period, and with the property split by the row’s share', async () => {
    const base = {
      unitId: String(fx.apartmentA),
      quantities: ['hca', 'heat-energy'],
      periodBegin: '2025-03-10',
      periodEnd: '2025-03-11',
      rows: 'ROOM',
    };
    const r = await gql<{
      tenantTable: {
        compareWith: string;
        rows: {
          label: string | null;
          object: { kind: string };
          values: (number | null)[];
          comparisonValues: (number | null)[];
        }[];
      };
    }>(api.tenant, TABLE, { table: base }, tokens.alice);
    expect(r.errors).toBeUndefined();
    const t = r.data!.tenantTable;
    expect(t.compareWith).toBe('LAST_PERIOD');
    expect(t.rows.map((row) => row.label)).toEqual(['Bedroom', 'Living room', null]);
    expect(t.rows[0]!.values).toEqual([HCA.aBedroom * 48, null]);
    expect(t.rows[0]!.comparisonValues).toEqual([HCA.aBedroom * 48, null]);
    expect(t.rows[2]!.values).toEqual([null, heatAOver('2025-03-10', '2025-03-12')]);
    expect(t.rows[2]!.comparisonValues).toEqual([null, heatAOver('2025-03-08', '2025-03-10')]);
    const p = await gql<{ tenantTable: { rows: { comparisonValues: (number | null)[] }[] } }>(
      api.tenant,
      TABLE,
      { table: { ...base, compareWith: 'PROPERTY' } },
      tokens.alice,
    );
    const propertyHcaPerM2 = ((HCA.aLiving + HCA.aBedroom + HCA.b + HCA.c) * 48) / 200;
    const share = HCA.aBedroom / (HCA.aBedroom + HCA.aLiving);
    expect(p.data!.tenantTable.rows[0]!.comparisonValues[0]).toBeCloseTo(
      propertyHcaPerM2 * AREA.a * share,
      6,
    );
  });

  it('rows per meter are MPOINT objects', async () => {
    const r = await gql<{
      tenantTable: { rows: { object: { id: string; kind: string }; values: (number | null)[] }[] };
    }>(
      api.tenant,
      TABLE,
      {
        table: {
          unitId: String(fx.apartmentA),
          quantities: ['hca'],
          periodBegin: '2025-03-10',
          periodEnd: '2025-03-10',
        },
      },
      tokens.alice,
    );
    expect(
      r.data!.tenantTable.rows.map((row) => [row.object.kind, Number(row.object.id), row.values[0]]),
    ).toEqual([
      ['MPOINT', fx.points.hcaABedroom, HCA.aBedroom * 24],
      ['MPOINT', fx.points.hcaALiving, HCA.aLiving * 24],
    ]);
  });
});

describe('prices, fixed charges, projection', () => {
  it('quantityPrices lists the prices valid in the period', async () => {
    const q = `query ($input: QuantityPricesInput!) { quantityPrices(input: $input) { quantity price currency validFrom validTo } }`;
    const march = await gql<{ quantityPrices: unknown[] }>(
      api.tenant,
      q,
      { input: { unitId: String(fx.apartmentA), periodBegin: '2025-03-01', periodEnd: '2025-03-31' } },
      tokens.alice,
    );
    expect(march.data!.quantityPrices).toEqual([
      {
        quantity: 'heat-energy',
        price: 0.5,
        currency: 'DKK',
        validFrom: '2025-01-01',
        validTo: '2025-03-15',
      },
      { quantity: 'heat-energy', price: 1, currency: 'DKK', validFrom: '2025-03-15', validTo: null },
    ]);
    const april = await gql<{ quantityPrices: unknown[] }>(
      api.tenant,
      q,
      { input: { unitId: String(fx.apartmentA), periodBegin: '2025-03-15', periodEnd: '2025-04-30' } },
      tokens.alice,
    );
    expect(april.data!.quantityPrices).toHaveLength(1);
  });

  it('fixedCharges spreads yearly amounts per day, inside the tenancy', async () => {
    const q = `query ($input: FixedChargesInput!) { fixedCharges(input: $input) { timestamps totals charges { kind amountPerYear values } } }`;
    const r = await gql<{
      fixedCharges: {
        timestamps: string[];
        totals: (number | null)[];
        charges: { values: (number | null)[] }[];
      };
    }>(
      api.tenant,
      q,
      {
        input: {
          unitId: String(fx.apartmentA),
          periodBegin: '2025-02-01',
          periodEnd: '2025-07-31',
          resolution: 'MONTH',
        },
      },
      tokens.alice,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.fixedCharges.timestamps).toHaveLength(6);
    // 365/year is 1 a day until 1 July, then 730/year is 2 a day; February is before Alice's tenancy.
    expect(r.data!.fixedCharges.totals).toEqual([null, 31, 30, 31, 30, 62]);
  });

  it('consumptionProjection: this month at the pace so far', async () => {
    const q = `query ($input: ProjectionInput!) { consumptionProjection(input: $input) {
      periodBegin periodEnd daysElapsed daysTotal soFar costSoFar projected projectedCost fixedCharges currency method } }`;
    const r = await gql<{ consumptionProjection: Record<string, unknown>[] }>(
      api.tenant,
      q,
      {
        input: {
          unitId: String(fx.apartmentB),
          quantities: ['heat-energy'],
          span: 'MONTH',
          asOf: '2025-03-11',
        },
      },
      tokens.bob,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.consumptionProjection[0]).toEqual({
      periodBegin: '2025-03-01',
      periodEnd: '2025-03-31',
      daysElapsed: 10,
      daysTotal: 31,
      soFar: 720,
      costSoFar: 360,
      projected: 72 * 31,
      projectedCost: 36 * 31,
      fixedCharges: 31,
      currency: 'DKK',
      method: 'linear-daily-average',
    });
  });
});

describe('readoutMinMax', () => {
  const q = `query ($t: Int!, $m: String!, $q: String!, $f: String!, $to: String!) {
    readoutMinMax(tenancyId: $t, meterNumber: $m, quantity: $q, fromDate: $f, toDate: $to) {
      meterNumber quantity firstReadoutTimestamp firstReadoutValue lastReadoutTimestamp lastReadoutValue } }`;
  it('last minus first readout equals the summed consumption between them (no meter swap)', async () => {
    const r = await gql<{
      readoutMinMax: {
        firstReadoutTimestamp: string;
        firstReadoutValue: number;
        lastReadoutTimestamp: string;
        lastReadoutValue: number;
      };
    }>(
      api.tenant,
      q,
      { t: fx.tenancyA, m: 'M-HEAT-A', q: 'heat-energy', f: '2025-03-01', to: '2025-03-31' },
      tokens.alice,
    );
    expect(r.errors).toBeUndefined();
    const m = r.data!.readoutMinMax;
    expect(m.firstReadoutTimestamp).toBe('2025-03-01T00:00:00+01:00');
    expect(m.firstReadoutValue).toBe(10000);
    expect(m.lastReadoutTimestamp).toBe('2025-03-31T23:00:00+02:00');
    const hourly = await series({
      resolution: 'HOUR',
      periodBegin: '2025-03-01T00:00',
      periodEnd: '2025-03-31T23:00',
    });
    expect(m.lastReadoutValue - m.firstReadoutValue).toBeCloseTo(sum(hourly.s.values as number[]), 9);
  });
  it('no readout in the range gives null', async () => {
    const r = await gql(
      api.tenant,
      q,
      { t: fx.tenancyA, m: 'M-HEAT-A', q: 'heat-energy', f: '2025-05-01', to: '2025-05-31' },
      tokens.alice,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ readoutMinMax: null });
  });
});

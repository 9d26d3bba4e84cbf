import { describe, expect, it } from 'vitest';
import { errorCode, gql } from './helpers/api.ts';
import {
  api,
  day,
  fx,
  graph,
  kpis,
  setUpConsumptionFixture,
  statementsOf,
  TABLE,
  tokens,
} from './helpers/consumption.ts';

setUpConsumptionFixture();

describe('another tenant’s ids are refused everywhere, like unknown ids', () => {
  const unknown = '999999';
  const cases: [
    string,
    () => Promise<{ errors?: { message: string; extensions?: { code?: string } }[]; data?: unknown }>,
  ][] = [
    [
      'tenantGraph MPOINT',
      () =>
        graph(
          {
            ...day('2025-03-10'),
            objects: [{ kind: 'MPOINT', id: String(fx.points.hcaALiving) }],
            quantities: ['hca'],
          },
          'bob',
        ),
    ],
    [
      'tenantGraph PROPERTY of another property',
      () => graph({ ...day('2025-03-10'), objects: [{ kind: 'PROPERTY', id: String(fx.property2) }] }),
    ],
    [
      'tenantGraph SOURCE of another property',
      () => graph({ ...day('2025-03-10'), objects: [{ kind: 'SOURCE', id: String(fx.property2) }] }),
    ],
    [
      'tenantGraph PROPERTY scaled to another tenant’s unit',
      () =>
        graph(
          {
            ...day('2025-03-10'),
            objects: [{ kind: 'PROPERTY', id: String(fx.propertyId), scaleToUnitId: String(fx.apartmentA) }],
          },
          'bob',
        ),
    ],
    [
      'tenantGraph PROPERTY unknown',
      () => graph({ ...day('2025-03-10'), objects: [{ kind: 'PROPERTY', id: unknown }] }),
    ],
    [
      'unitQuantityKpis',
      () =>
        kpis({ unitId: String(fx.apartmentA), periodBegin: '2025-03-01', periodEnd: '2025-03-31' }, 'bob'),
    ],
    [
      'unitQuantityKpis unknown',
      () => kpis({ unitId: unknown, periodBegin: '2025-03-01', periodEnd: '2025-03-31' }, 'bob'),
    ],
    [
      'unitQuantityKpis other property',
      () =>
        kpis({ unitId: String(fx.apartmentB), periodBegin: '2025-03-01', periodEnd: '2025-03-31' }, 'dave'),
    ],
    [
      'tenantTable',
      () =>
        gql(
          api.tenant,
          TABLE,
          {
            table: {
              unitId: String(fx.apartmentA),
              quantities: ['hca'],
              periodBegin: '2025-03-01',
              periodEnd: '2025-03-31',
            },
          },
          tokens.bob,
        ),
    ],
    [
      'quantityPrices',
      () =>
        gql(
          api.tenant,
          'query ($i: QuantityPricesInput!) { quantityPrices(input: $i) { price } }',
          { i: { unitId: String(fx.apartmentB), periodBegin: '2025-03-01', periodEnd: '2025-03-31' } },
          tokens.dave,
        ),
    ],
    [
      'fixedCharges',
      () =>
        gql(
          api.tenant,
          'query ($i: FixedChargesInput!) { fixedCharges(input: $i) { totals } }',
          {
            i: {
              unitId: String(fx.apartmentA),
              periodBegin: '2025-03-01',
              periodEnd: '2025-03-31',
              resolution: 'MONTH',
            },
          },
          tokens.bob,
        ),
    ],
    [
      'consumptionProjection',
      () =>
        gql(
          api.tenant,
          'query ($i: ProjectionInput!) { consumptionProjection(input: $i) { soFar } }',
          { i: { unitId: String(fx.apartmentA), quantities: ['heat-energy'], span: 'MONTH' } },
          tokens.bob,
        ),
    ],
    [
      'readoutMinMax: another tenancy',
      () =>
        gql(
          api.tenant,
          'query { readoutMinMax(tenancyId: ' +
            fx.tenancyA +
            ', meterNumber: "M-HEAT-A", quantity: "heat-energy", fromDate: "2025-03-01", toDate: "2025-03-31") { lastReadoutValue } }',
          {},
          tokens.bob,
        ),
    ],
    [
      'readoutMinMax: another tenant’s meter on my tenancy',
      () =>
        gql(
          api.tenant,
          'query { readoutMinMax(tenancyId: ' +
            fx.tenancyB +
            ', meterNumber: "M-HEAT-A", quantity: "heat-energy", fromDate: "2025-03-01", toDate: "2025-03-31") { lastReadoutValue } }',
          {},
          tokens.bob,
        ),
    ],
    [
      'readoutMinMax: unknown tenancy',
      () =>
        gql(
          api.tenant,
          'query { readoutMinMax(tenancyId: 999999, meterNumber: "M-HEAT-B", quantity: "heat-energy", fromDate: "2025-03-01", toDate: "2025-03-31") { lastReadoutValue } }',
          {},
          tokens.bob,
        ),
    ],
  ];
  it.each(cases)('%s', async (_name, call) => {
    const r = await call();
    expect(errorCode(r)).toBe('FORBIDDEN');
    expect(r.errors![0]!.message).toBe('Adgang ikke tilladt');
    // Nullable fields (readoutMinMax) come back as null next to the error; nothing else is returned.
    expect(Object.values((r.data ?? {}) as Record<string, unknown>).every((v) => v === null)).toBe(true);
  });
});

describe('SQL statements per request', () => {
  const count = statementsOf;
  it('a fixed, small number whatever the period length', async () => {
    const graphOf = (resolution: string, from: string, to: string) => () =>
      graph({
        resolution,
        periodBegin: `${from}T00:00`,
        periodEnd: `${to}T00:00`,
        related: ['PROPERTY', 'LAST_PERIOD', 'LAST_YEAR'],
        climateCorrection: {},
      });
    const shortGraph = await count(graphOf('DAY', '2025-03-10', '2025-03-11'));
    const longGraph = await count(graphOf('DAY', '2024-03-10', '2025-03-11'));
    const yearByMonth = await count(graphOf('MONTH', '2025-01-01', '2026-01-01'));
    expect(longGraph).toBe(shortGraph);
    expect(yearByMonth).toBe(shortGraph);
    // tenantGraph alone: the caller's units and points, which also checks that the caller is still an active
    // user (issue 8; callerCheckPlugin leaves that to this statement), then the series.
    expect(shortGraph).toBe(2);
    const hcaYear = await count(() =>
      graph({
        resolution: 'MONTH',
        periodBegin: '2025-01-01T00:00',
        periodEnd: '2026-01-01T00:00',
        quantities: ['hca', 'heat-energy'],
        hcaKwhEstimate: true,
        related: ['PROPERTY'],
      }),
    );
    // The hca kWh estimate adds one statement (the property's allocator months), whatever the period.
    expect(hcaYear).toBe(shortGraph + 1);
    const shortKpi = await count(() =>
      kpis({ periodBegin: '2025-03-10', periodEnd: '2025-03-10', climateCorrection: {} }),
    );
    const longKpi = await count(() =>
      kpis({ periodBegin: '2023-03-10', periodEnd: '2025-12-31', climateCorrection: {} }),
    );
    expect(longKpi).toBe(shortKpi);
    expect(shortKpi).toBeLessThanOrEqual(5);
    const tableOf = (periodEnd: string) => () =>
      gql(
        api.tenant,
        TABLE,
        {
          table: {
            unitId: String(fx.apartmentA),
            quantities: ['hca', 'heat-energy'],
            periodBegin: '2025-03-01',
            periodEnd,
            rows: 'ROOM',
          },
        },
        tokens.alice,
      );
    expect(await count(tableOf('2025-03-01'))).toBe(await count(tableOf('2025-12-31')));
    expect(await count(tableOf('2025-03-01'))).toBeLessThanOrEqual(4);
  });
});

describe('bad input gets BAD_USER_INPUT and no data', () => {
  const marchTable = (table: Record<string, unknown>) =>
    gql(
      api.tenant,
      TABLE,
      {
        table: {
          unitId: String(fx.apartmentB),
          periodBegin: '2025-03-01',
          periodEnd: '2025-03-31',
          ...table,
        },
      },
      tokens.bob,
    );
  const cases: [
    string,
    () => Promise<{ errors?: { message: string; extensions?: { code?: string } }[]; data?: unknown }>,
  ][] = [
    ['KPIs with the period reversed', () => kpis({ periodBegin: '2025-03-10', periodEnd: '2025-03-01' })],
    ['KPIs with an impossible date', () => kpis({ periodBegin: '2025-02-30', periodEnd: '2025-03-01' })],
    ['KPIs over more than three years', () => kpis({ periodBegin: '2020-01-01', periodEnd: '2025-03-01' })],
    [
      'KPIs: COST of an averaged quantity',
      () =>
        kpis({
          quantities: ['indoor-temperature'],
          graphType: 'COST',
          periodBegin: '2025-03-01',
          periodEnd: '2025-03-02',
        }),
    ],
    ['tenantTable with an unknown quantity', () => marchTable({ quantities: ['unobtainium'] })],
    [
      'fixedCharges per DAY',
      () =>
        gql(
          api.tenant,
          'query ($i: FixedChargesInput!) { fixedCharges(input: $i) { totals } }',
          {
            i: {
              unitId: String(fx.apartmentB),
              periodBegin: '2025-03-01',
              periodEnd: '2025-03-31',
              resolution: 'DAY',
            },
          },
          tokens.bob,
        ),
    ],
    [
      'a projection for a WEEK',
      () =>
        gql(
          api.tenant,
          'query ($i: ProjectionInput!) { consumptionProjection(input: $i) { soFar } }',
          { i: { unitId: String(fx.apartmentB), quantities: ['heat-energy'], span: 'WEEK' } },
          tokens.bob,
        ),
    ],
    [
      'tenantTable: CO2 of an averaged quantity',
      () => marchTable({ quantities: ['heat-energy', 'indoor-relative-humidity'], graphType: 'CO2' }),
    ],
    [
      'a projection of an averaged quantity',
      () =>
        gql(
          api.tenant,
          'query ($i: ProjectionInput!) { consumptionProjection(input: $i) { soFar } }',
          { i: { unitId: String(fx.apartmentB), quantities: ['indoor-temperature'], span: 'MONTH' } },
          tokens.bob,
        ),
    ],
    [
      'readoutMinMax with fromDate after toDate',
      () =>
        gql(
          api.tenant,
          `query { readoutMinMax(tenancyId: ${fx.tenancyB}, meterNumber: "M-HEAT-B", quantity: "heat-energy", fromDate: "2025-03-31", toDate: "2025-03-01") { lastReadoutValue } }`,
          {},
          tokens.bob,
        ),
    ],
    [
      'quantityPrices with a non-numeric unit id',
      () =>
        gql(
          api.tenant,
          'query ($i: QuantityPricesInput!) { quantityPrices(input: $i) { price } }',
          { i: { unitId: '1 OR 1=1', periodBegin: '2025-03-01', periodEnd: '2025-03-31' } },
          tokens.bob,
        ),
    ],
  ];
  it.each(cases)('%s', async (_name, call) => {
    const r = await call();
    expect(errorCode(r)).toBe('BAD_USER_INPUT');
    expect(Object.values((r.data ?? {}) as Record<string, unknown>).every((v) => v === null)).toBe(true);
  });
});

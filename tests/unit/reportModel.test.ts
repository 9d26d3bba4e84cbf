import { describe, expect, it } from 'vitest';
import { climateCorrected, degreeDays } from '../../src/server/reports/degreeDays.ts';
import { parseFuelMix } from '../../src/server/reports/deployment.ts';
import { buildMonthlyReport, type ReportInput } from '../../src/server/reports/model.ts';

const input = (overrides: Partial<ReportInput> = {}): ReportInput => ({
  month: '2025-10-01',
  costFrom: '2025-10-01',
  tenancy: { address: 'A 1', apartment: '1', zipcode: '8000', city: 'Aarhus', areaM2: 50 },
  landlord: { name: 'L', phone: null, email: null },
  apartment: {
    'heat-energy': { unit: 'kilo-watt-hour', months: { '2025-10-01': 100 } },
    hca: { unit: 'hca-unit', months: { '2025-10-01': 40 } },
  },
  propertyPerM2: {},
  propertyHeat: { '2025-10-01': { heatKwh: 1000, hcaUnits: 400 } },
  outdoor: { month: [], lastYear: [] },
  prices: [
    { quantity: 'heat-energy', price: 1, currency: 'DKK', validFrom: '2025-01-01', validTo: null },
    { quantity: 'hca', price: 2, currency: 'DKK', validFrom: '2025-01-01', validTo: null },
  ],
  co2: {},
  fuelMix: [],
  ...overrides,
});

describe('monthly report model', () => {
  it('charges allocator units only where no heat meter measures the same heat', () => {
    expect(buildMonthlyReport(input()).cost).toEqual({
      currency: 'DKK',
      month: 100,
      soFar: 100,
      from: '2025-10-01',
    });
    const onlyHca = buildMonthlyReport(
      input({ apartment: { hca: { unit: 'hca-unit', months: { '2025-10-01': 40 } } } }),
    );
    expect(onlyHca.cost?.month).toBe(80);
    // 40 units × 1,000 kWh / 400 units in the building.
    expect(onlyHca.quantities[0]!.kwhEstimate?.month).toBe(100);
    expect(onlyHca.climate.heatQuantity).toBe('hca');
  });

  it('counts degree days below 17 °C only, and scales last year by the weather', () => {
    expect(degreeDays([])).toBeNull();
    expect(
      degreeDays([
        { day: 'a', meanC: 20 },
        { day: 'b', meanC: 7 },
        { day: 'c', meanC: 16.5 },
      ]),
    ).toBe(10.5);
    expect(climateCorrected(372, 248, 310)).toBe(465);
    expect(climateCorrected(100, 0, 10)).toBeNull();
  });

  it('refuses a fuel mix that does not add up or names an unknown source', () => {
    expect(parseFuelMix('biomass=60, waste=40')).toEqual([
      { source: 'biomass', percent: 60 },
      { source: 'waste', percent: 40 },
    ]);
    expect(() => parseFuelMix('biomass=60,waste=30')).toThrow('add up to 90');
    expect(() => parseFuelMix('peat=100')).toThrow('unknown fuel source "peat"');
  });
});

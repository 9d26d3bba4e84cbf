import { describe, expect, it } from 'vitest';
import { DEFAULT_REPORT_SETTINGS } from '../../src/lib/reportSettings.ts';
import { parseFuelMix } from '../../src/server/reports/deployment.ts';
import { buildMonthlyReport, type ReportInput } from '../../src/server/reports/model.ts';

const input = (overrides: Partial<ReportInput> = {}): ReportInput => ({
  month: '2025-10-01',
  costFrom: '2025-10-01',
  tenancy: { address: 'A 1', apartment: '1', zipcode: '8000', city: 'Aarhus', areaM2: 50 },
  landlord: { name: 'L', phone: null, email: null },
  meteredQuantities: ['hca', 'heat-energy'],
  apartment: {
    'heat-energy': { unit: 'kilo-watt-hour', months: { '2025-10-01': 100 } },
    hca: { unit: 'hca-unit', months: { '2025-10-01': 40 } },
  },
  propertyPerM2: {},
  allocatorFactors: { '2025-10-01': { method: 'metered-flats', kwhPerUnit: 1000 / 400 } },
  days: [],
  settings: { ...DEFAULT_REPORT_SETTINGS },
  bodies: {
    dispute: [],
    consumer: { kind: 'consumer-organisation', name: 'Forbrugerrådet Tænk', url: 'https://taenk.dk' },
  },
  prices: [
    { quantity: 'heat-energy', price: 1, currency: 'DKK', validFrom: '2025-01-01', validTo: null },
    { quantity: 'hca', price: 2, currency: 'DKK', validFrom: '2025-01-01', validTo: null },
  ],
  co2: {},
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
    // The rule is per flat, as in the app: a month whose heat readings are missing still has a heat meter.
    const heatMissing = buildMonthlyReport(
      input({ apartment: { hca: { unit: 'hca-unit', months: { '2025-10-01': 40 } } } }),
    );
    expect(heatMissing.cost).toBeNull();
    const onlyHca = buildMonthlyReport(
      input({
        meteredQuantities: ['hca'],
        apartment: { hca: { unit: 'hca-unit', months: { '2025-10-01': 40 } } },
      }),
    );
    expect(onlyHca.cost?.month).toBe(80);
    // 40 units × 1,000 kWh / 400 units in the building.
    expect(onlyHca.quantities[0]!.kwhEstimate?.month).toBe(100);
    expect(onlyHca.climate.heatQuantity).toBe('hca');
  });

  it('corrects last year day by day with the property hot-water share, and adds hot water in kWh', () => {
    const days = [
      { day: '2025-10-01', value: 50, degreeDays: 10, lastYearValue: 40, lastYearDegreeDays: 8 },
      { day: '2025-10-02', value: 50, degreeDays: 0.2, lastYearValue: 30, lastYearDegreeDays: 0.3 },
    ];
    const report = buildMonthlyReport(
      input({
        days,
        settings: { ...DEFAULT_REPORT_SETTINGS, hotWaterShare: 0.2 },
        apartment: {
          'heat-energy': { unit: 'kilo-watt-hour', months: { '2025-10-01': 100, '2024-10-01': 70 } },
          'hot-water-volume': { unit: 'cubic-meter', months: { '2025-10-01': 2 } },
        },
      }),
    );
    // Day 1: 40 × (0.2 + 0.8 × 10/8) = 48; day 2 under 0.5 degree days stays 30.
    expect(report.climate.correctedLastYearKwh).toBeCloseTo(78, 12);
    expect(report.climate.degreeDays).toBeCloseTo(10.2, 12);
    expect(report.climate.hotWaterShare).toBe(0.2);
    expect(report.hotWater).toMatchObject({ m3: 2, kwh: 250, method: 'heizkostenv-9-2' });
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

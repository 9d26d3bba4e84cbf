/** CO2KostAufG stage table (src/lib/co2CostSplit.ts): both sides of each edge, the year scaling and the parts. */
import { describe, expect, it } from 'vitest';
import { co2CostSplit } from '../../src/lib/co2CostSplit.ts';

/** The split for `kgPerM2` over a 365-day year on 100 m². */
const at = (kgPerM2: number, co2Cost = 10_000, heatShare = 0.5) =>
  co2CostSplit({ buildingKg: kgPerM2 * 100, areaM2: 100, days: 365, co2Cost, heatShare });

describe('CO2KostAufG split', () => {
  it.each([
    [0, 1, 100],
    [11.99, 1, 100],
    [12, 2, 90],
    [16.99, 2, 90],
    [17, 3, 80],
    [22, 4, 70],
    [27, 5, 60],
    [32, 6, 50],
    [37, 7, 40],
    [42, 8, 30],
    [47, 9, 20],
    [51.99, 9, 20],
    [52, 10, 5],
    [400, 10, 5],
  ])('%f kg/m²/year is stage %i, tenant %i %%', (kg, stage, tenantPercent) => {
    const split = at(kg)!;
    expect(split.stage).toBe(stage);
    expect(split.tenantPercent).toBe(tenantPercent);
    expect(split.landlordPercent).toBe(100 - tenantPercent);
  });

  it('gives the stage edges and the tenant and landlord parts in minor units, adding up', () => {
    const split = at(30, 120_000, 0.2)!;
    expect(split).toMatchObject({
      from: 27,
      upTo: 32,
      tenantCo2Cost: 24_000,
      tenantPart: 14_400,
      landlordPart: 9_600,
    });
    expect(at(60)).toMatchObject({ from: 52, upTo: null });
    const odd = at(40, 333, 1)!;
    expect(odd.tenantPart + odd.landlordPart).toBe(odd.tenantCo2Cost);
  });

  it('scales a period other than a year to a year', () => {
    // 6 kg/m² in half a year is 12 kg/m² a year: stage 2.
    const half = co2CostSplit({ buildingKg: 600, areaM2: 100, days: 182.5, co2Cost: 0, heatShare: 0 })!;
    expect(half.kgPerM2Year).toBe(12);
    expect(half.stage).toBe(2);
  });

  it('has no split without a positive area or period', () => {
    expect(co2CostSplit({ buildingKg: 1, areaM2: 0, days: 365, co2Cost: 1, heatShare: 1 })).toBeNull();
    expect(co2CostSplit({ buildingKg: 1, areaM2: 10, days: 0, co2Cost: 1, heatShare: 1 })).toBeNull();
  });
});

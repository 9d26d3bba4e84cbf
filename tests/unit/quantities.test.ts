import { describe, expect, it } from 'vitest';
import {
  firstWithoutCost,
  isQuantityId,
  LEGACY_KINDS,
  legacyKindOfQuantity,
  QUANTITIES,
  QUANTITY_IDS,
  type QuantityId,
  quantityFromLegacyKind,
  quantityInfo,
  type UnitId,
  UnknownQuantityError,
} from '../../src/lib/quantities.ts';

describe('quantity catalogue', () => {
  it('has exactly the 21 identifiers of SPEC §3', () => {
    expect(QUANTITY_IDS).toHaveLength(21);
    expect(Object.keys(QUANTITIES).sort()).toEqual([...QUANTITY_IDS].sort());
    for (const id of QUANTITY_IDS) {
      expect(QUANTITIES[id].id).toBe(id);
      expect(QUANTITIES[id].labelKey).toBe(`quantities.${id}`);
    }
  });

  it('follows SPEC §3 aggregation where given', () => {
    for (const id of ['cold-water-volume', 'hot-water-volume', 'total-water-volume', 'gas-volume'] as const) {
      expect(QUANTITIES[id].aggregation, id).toBe('sum');
    }
    for (const id of [
      'indoor-relative-humidity',
      'indoor-temperature',
      'cooling-energy',
      'heat-flow-temperature',
      'heat-return-temperature',
    ] as const) {
      expect(QUANTITIES[id].aggregation, id).toBe('avg');
    }
  });

  it('sums the register quantities SPEC leaves out', () => {
    for (const id of ['heat-energy', 'hca', 'electricity-energy', 'heat-volume'] as const) {
      expect(QUANTITIES[id].aggregation, id).toBe('sum');
    }
  });

  it('has the unit, aggregation and per-m² form of docs/domain.md for every quantity', () => {
    const table: Record<QuantityId, [UnitId, 'sum' | 'avg', boolean]> = {
      'heat-energy': ['kilo-watt-hour', 'sum', true],
      'heat-volume': ['cubic-meter', 'sum', true],
      hca: ['hca-unit', 'sum', true],
      'hot-water-volume': ['cubic-meter', 'sum', true],
      'cold-water-volume': ['cubic-meter', 'sum', true],
      'electricity-energy': ['kilo-watt-hour', 'sum', true],
      'cooling-energy': ['kilo-watt-hour', 'avg', true],
      'gas-volume': ['cubic-meter', 'sum', true],
      'total-water-volume': ['cubic-meter', 'sum', true],
      'heat-flow-temperature': ['degree-celsius', 'avg', false],
      'heat-return-temperature': ['degree-celsius', 'avg', false],
      'indoor-temperature': ['degree-celsius', 'avg', false],
      'indoor-relative-humidity': ['percent', 'avg', false],
      'electricity-frequency': ['hertz', 'avg', false],
      'hot-water-flow': ['cubic-meter-per-hour', 'avg', false],
      'gas-pressure': ['bar', 'avg', false],
      'outdoor-temperature': ['degree-celsius', 'avg', false],
      'heat-cooling': ['degree-kelvin', 'avg', false],
      'hot-water-backflow': ['cubic-meter', 'sum', false],
      'cold-water-backflow': ['cubic-meter', 'sum', false],
      error: ['count', 'sum', false],
    };
    for (const id of QUANTITY_IDS) {
      const { unit, aggregation, normalizable } = QUANTITIES[id];
      expect([unit, aggregation, normalizable], id).toEqual(table[id]);
    }
  });

  it('has the SPEC §9 decimals', () => {
    expect(QUANTITIES['cold-water-volume'].decimals).toEqual({ min: 3, max: 3 });
    expect(QUANTITIES['electricity-energy'].decimals.min).toBe(2);
    expect(QUANTITIES['cooling-energy'].decimals.min).toBe(2);
    expect(QUANTITIES['gas-volume'].decimals.min).toBe(2);
    for (const id of ['heat-energy', 'hca', 'indoor-relative-humidity', 'indoor-temperature'] as const) {
      expect(QUANTITIES[id].decimals, id).toEqual({ min: 0, max: 0 });
    }
    expect(QUANTITIES.hca.normalizedDecimals).toEqual({ min: 2, max: 2 });
  });

  it('uses the SPEC §3 units for the consumption quantities', () => {
    expect(QUANTITIES['heat-energy'].unit).toBe('kilo-watt-hour');
    expect(QUANTITIES.hca.unit).toBe('hca-unit');
    expect(QUANTITIES['cold-water-volume'].unit).toBe('cubic-meter');
    expect(QUANTITIES['indoor-temperature'].unit).toBe('degree-celsius');
    expect(QUANTITIES['indoor-relative-humidity'].unit).toBe('percent');
  });

  it('normalises consumption but not temperatures', () => {
    expect(QUANTITIES['heat-energy'].normalizable).toBe(true);
    expect(QUANTITIES['indoor-temperature'].normalizable).toBe(false);
  });
});

describe('firstWithoutCost', () => {
  it('names the first averaged quantity, which has no cost or CO₂, and null when all are summed', () => {
    expect(firstWithoutCost(['heat-energy', 'indoor-temperature', 'indoor-relative-humidity'])).toBe(
      'indoor-temperature',
    );
    expect(firstWithoutCost(['heat-energy', 'hca', 'cold-water-volume'])).toBeNull();
    expect(firstWithoutCost([])).toBeNull();
    for (const id of QUANTITY_IDS)
      expect(firstWithoutCost([id]) === null, id).toBe(QUANTITIES[id].aggregation === 'sum');
  });
});

describe('isQuantityId and quantityInfo', () => {
  it('accepts known ids only', () => {
    expect(isQuantityId('heat-energy')).toBe(true);
    expect(isQuantityId('Heat-Energy')).toBe(false);
    expect(isQuantityId('water')).toBe(false);
    expect(isQuantityId(undefined)).toBe(false);
  });

  it('throws a clear error for an unknown quantity', () => {
    expect(() => quantityInfo('steam')).toThrow(UnknownQuantityError);
    expect(() => quantityInfo('steam')).toThrow(/Unknown quantity "steam"/);
    expect(() => quantityInfo(undefined)).toThrow(/Unknown quantity undefined/);
  });
});

describe('legacy meter kinds', () => {
  it('maps every SPEC §3 legacy name to a quantity, and back', () => {
    for (const kind of LEGACY_KINDS) {
      const q = quantityFromLegacyKind(kind);
      expect(q, kind).not.toBeNull();
      expect(legacyKindOfQuantity(q!)).toBe(kind);
    }
    expect(quantityFromLegacyKind('radiator')).toBe('hca');
    expect(quantityFromLegacyKind('energy')).toBe('heat-energy');
    expect(quantityFromLegacyKind(' ColdWater ')).toBe('cold-water-volume');
  });

  it('gives null for unknown names', () => {
    expect(quantityFromLegacyKind('steam')).toBeNull();
    expect(quantityFromLegacyKind(null)).toBeNull();
    // Names that Object.prototype carries are not meter kinds either.
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(quantityFromLegacyKind(name), name).toBeNull();
    expect(legacyKindOfQuantity('outdoor-temperature')).toBeNull();
  });
});

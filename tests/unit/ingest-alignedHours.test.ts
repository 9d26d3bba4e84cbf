import { describe, expect, it } from 'vitest';
import { alignedChainHours, hourDelta } from '../../src/server/ingest/alignedHours.ts';

const H = 3_600_000;

describe('hourDelta (DELTA_WRAPPED in exact decimals)', () => {
  it('is the rise of a register, trimmed of fraction zeros as trim_scale does', () => {
    expect(hourDelta('5456.1', '5456.35', null)).toBe('0.25');
    expect(hourDelta('5456.100', '5457.1', null)).toBe('1');
    expect(hourDelta('0.1', '0.3', null)).toBe('0.2'); // 0.3 - 0.1 in floats is 0.19999999999999998
    expect(hourDelta('12', '12', null)).toBe('0');
    expect(hourDelta('99999999999999999.000001', '99999999999999999.000002', null)).toBe('0.000001');
  });
  it('counts a drop as a reset, the new value being the consumption since', () => {
    expect(hourDelta('304.56', '14.56', null)).toBe('14.56');
    expect(hourDelta('304.56', '0', null)).toBe('0');
  });
  it('takes a drop from the top tenth of a register that rolls over as a rollover', () => {
    expect(hourDelta('99998.5', '1.25', 5)).toBe('2.75');
    expect(hourDelta('90000', '3', 5)).toBe('10003');
    // Below the top tenth it is a reset, as in SQL.
    expect(hourDelta('89999.9', '3', 5)).toBe('3');
  });
  it('is exact on both sides of the 15 digits computed in doubles', () => {
    // 15 digits (doubles) and 16 (BigInt): 0.1 more each, where doubles of 16 digits would round.
    expect(hourDelta('999999999999.899', '999999999999.999', null)).toBe('0.1');
    expect(hourDelta('9999999999999.899', '9999999999999.999', null)).toBe('0.1');
    expect(hourDelta('999999999999.999', '1000000000000.099', null)).toBe('0.1');
    // A rollover whose top (10^digits at the values' scale) has 16 digits.
    expect(hourDelta('9999999999999.9', '0.1', 13)).toBe('0.2');
    expect(hourDelta('99999999999.9', '0.1', 11)).toBe('0.2');
  });
  it('gives the same as integer arithmetic for random registers of any length', () => {
    // A reference in BigInt, written apart from the code under test.
    const reference = (a: string, b: string, digits: number | null) => {
      const scale = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
      const int = (v: string) =>
        BigInt(v.replace('.', '') + '0'.repeat(scale - (v.split('.')[1]?.length ?? 0)));
      const [x, y] = [int(a), int(b)];
      let n = y;
      if (y >= x) n = y - x;
      else if (digits !== null && 10n * x >= 9n * 10n ** BigInt(digits + scale))
        n = 10n ** BigInt(digits + scale) - x + y;
      const s = n.toString().padStart(scale + 1, '0');
      const body = scale > 0 ? `${s.slice(0, -scale)}.${s.slice(-scale)}` : s;
      return body.includes('.') ? body.replace(/0+$/, '').replace(/\.$/, '') : body;
    };
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const value = (digits: number) => {
      const int =
        String(random(10 ** Math.min(digits, 9))).padStart(1, '0') +
        (digits > 9 ? String(random(10 ** (digits - 9))) : '');
      const scale = random(5);
      return scale > 0 ? `${int}.${String(random(10 ** scale)).padStart(scale, '0')}` : int;
    };
    for (let i = 0; i < 5_000; i++) {
      const digits = 1 + random(18);
      const a = value(digits);
      const b = value(digits);
      const wrap = random(2) === 0 ? null : digits;
      expect(hourDelta(a, b, wrap), `${a} → ${b} (${wrap})`).toBe(reference(a, b, wrap));
    }
  });
  it('gives up on anything that is not a plain decimal (the SQL path takes it)', () => {
    expect(hourDelta('1e3', '1001', null)).toBeNull();
    expect(hourDelta('NaN', '1', null)).toBeNull();
  });
});

describe('alignedChainHours', () => {
  const chain = (ms: number[], digits: number | null = null) => ({
    meterId: 1,
    pointId: 7,
    digits,
    readings: ms.map((t, i) => ({ ms: t, value: String(10 + i) })),
  });
  it('takes a chain of whole hours an hour apart, one hour per interval at its start', () => {
    const { hours, rest } = alignedChainHours([chain([10 * H, 11 * H, 12 * H])]);
    expect(rest).toEqual([]);
    expect(hours).toEqual([
      { pointId: 7, ms: 10 * H, value: '1' },
      { pointId: 7, ms: 11 * H, value: '1' },
    ]);
  });
  it('leaves a chain with a gap, or off the whole hour, to SQL, whole', () => {
    const gap = chain([10 * H, 11 * H, 13 * H]);
    const off = chain([10 * H + 60_000, 11 * H + 60_000]);
    const { hours, rest } = alignedChainHours([gap, off]);
    expect(hours).toEqual([]);
    expect(rest).toEqual([gap, off]);
  });
});

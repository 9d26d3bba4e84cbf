import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copenhagenOffset, formatScaled, parseScaled } from '../../src/server/demo/model.ts';
import { parseDecimal, parseTimestamp } from '../../src/server/ingest/parse.ts';

describe('parseTimestamp', () => {
  it('accepts ISO 8601 with Z or an offset', () => {
    const utc = Date.UTC(2025, 2, 30, 1, 0, 0);
    expect(parseTimestamp('2025-03-30T01:00:00Z')).toBe(utc);
    expect(parseTimestamp('2025-03-30T01:00Z')).toBe(utc);
    expect(parseTimestamp('2025-03-30T03:00:00+02:00')).toBe(utc);
    expect(parseTimestamp('2025-03-30T03:00:00+0200')).toBe(utc);
    expect(parseTimestamp('2025-03-30 02:00:00+01')).toBe(utc);
    expect(parseTimestamp('2025-03-29T20:30:00-04:30')).toBe(utc);
    expect(parseTimestamp('2025-03-30T01:00:00.250Z')).toBe(utc + 250);
    expect(parseTimestamp('2025-03-30T01:00:00.250000Z')).toBe(utc + 250);
  });

  it('refuses local times, impossible dates and sub-millisecond precision', () => {
    for (const bad of [
      '2025-03-30T01:00:00',
      '2025-02-29T00:00:00Z',
      '2025-13-01T00:00:00Z',
      '2025-01-01T24:00:00Z',
      '2025-01-01T00:60:00Z',
      '2025-01-01T00:00:00+15:00',
      '2025-01-01T00:00:00.0001Z',
      '30/03/2025 01:00',
      '',
    ]) {
      expect(parseTimestamp(bad), bad).toBeNull();
    }
    expect(parseTimestamp('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
  });
});

describe('parseDecimal', () => {
  it('returns a canonical decimal', () => {
    expect(parseDecimal('12.500')).toBe('12.5');
    expect(parseDecimal('+007')).toBe('7');
    expect(parseDecimal('-0.0')).toBe('0');
    expect(parseDecimal('.5')).toBe('0.5');
    expect(parseDecimal('5.')).toBe('5');
    expect(parseDecimal(' -3.25 ')).toBe('-3.25');
    expect(parseDecimal('123456789012345678901234.000000001')).toBe('123456789012345678901234.000000001');
  });

  it('keeps canonical texts as they are, and canonicalises the rest to the same number', () => {
    expect(parseDecimal('-0')).toBe('0');
    expect(parseDecimal('0')).toBe('0');
    expect(parseDecimal('-0.05')).toBe('-0.05');
    expect(parseDecimal('10.01')).toBe('10.01');
    const decimal = fc
      .tuple(
        fc.constantFrom('', '+', '-'),
        fc.stringMatching(/^\d{0,6}$/),
        fc.constantFrom('', '.'),
        fc.stringMatching(/^\d{0,6}$/),
      )
      .map(([sign, int, point, frac]) => `${sign}${int}${point}${point ? frac : ''}`)
      .filter((t) => /\d/.test(t));
    fc.assert(
      fc.property(decimal, (text) => {
        const canonical = parseDecimal(text);
        expect(canonical).toMatch(/^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/);
        expect(canonical).not.toBe('-0');
        expect(Number(canonical)).toBe(Number(text) === 0 ? 0 : Number(text));
        expect(parseDecimal(canonical!)).toBe(canonical);
      }),
    );
  });

  it('refuses anything else', () => {
    for (const bad of ['', 'abc', '1,5', '1e3', '1.2.3', '--1', 'NaN', 'Infinity', '0x10', '1 000']) {
      expect(parseDecimal(bad), bad).toBeNull();
    }
  });
});

describe('demo helpers', () => {
  it('formats and parses scaled integers exactly', () => {
    expect(formatScaled(12_345_678, 3)).toBe('12345.678');
    expect(formatScaled(5, 3)).toBe('0.005');
    expect(formatScaled(-5, 2)).toBe('-0.05');
    expect(formatScaled(42, 0)).toBe('42');
    expect(parseScaled('12345.678', 3)).toBe(12_345_678);
    expect(parseScaled('12345.6', 3)).toBe(12_345_600);
    expect(parseScaled('7', 2)).toBe(700);
  });

  it('knows the Copenhagen offset on both sides of the DST switches', () => {
    const offset = (iso: string) => {
      const part = new Intl.DateTimeFormat('en', {
        timeZone: 'Europe/Copenhagen',
        timeZoneName: 'shortOffset',
      })
        .formatToParts(new Date(iso))
        .find((p) => p.type === 'timeZoneName')!.value;
      return Number(part.replace('GMT', ''));
    };
    for (const iso of [
      '2025-03-30T00:59:59Z',
      '2025-03-30T01:00:00Z',
      '2025-10-26T00:59:59Z',
      '2025-10-26T01:00:00Z',
      '2026-03-29T01:00:00Z',
      '2026-07-01T12:00:00Z',
      '2026-12-24T18:00:00Z',
    ]) {
      expect(copenhagenOffset(Date.parse(iso)), iso).toBe(offset(iso));
    }
  });
});

/**
 * The refusal codes' one list (src/lib/refusalCodes.ts) against what documents and texts them: docs/ingest.md's
 * table and the OpenAPI enum name exactly these codes, and every locale has a text for each. The two codes a live
 * batch never gives (a first load's implausible intervals) are checked here on jumpProblems.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isRefusalCode, REFUSAL_CODES } from '../../src/lib/refusalCodes.ts';
import { jumpProblems } from '../../src/server/ingest/jumps.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the refusal codes', () => {
  it('are each in docs/ingest.md’s table, and no other', () => {
    const section = read('docs/ingest.md').split('### Refusal codes')[1]!.split('\n### ')[0]!;
    const documented = [...section.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual([...REFUSAL_CODES]);
  });

  it('are the OpenAPI RefusalCode enum', () => {
    const schema = read('docs/ingest.openapi.yaml')
      .split('    RefusalCode:\n')[1]!
      .split(/\n {4}\w/)[0]!;
    const listed = [...schema.matchAll(/^ {8}- ([a-z0-9_]+)$/gm)].map((m) => m[1]);
    expect(listed).toEqual([...REFUSAL_CODES]);
  });

  it('have a console text in every language', () => {
    for (const lang of ['en', 'da', 'nb']) {
      const texts = JSON.parse(read(`locales/${lang}/admin-ops.json`)).refusals as Record<string, string>;
      expect(Object.keys(texts).sort(), lang).toEqual([...REFUSAL_CODES].sort());
    }
  });

  it('are told from other texts', () => {
    expect(isRefusalCode('unknown_meter')).toBe(true);
    expect(isRefusalCode('no_value')).toBe(false);
    expect(isRefusalCode(null)).toBe(false);
  });
});

describe("a first load's implausible intervals", () => {
  const jump = { meter_id: 1, number: 'H-1', quantity: 'heat-energy', per_hour: '1000', hours: '2' };
  const batch = [
    { line: 5, meterId: 1, ms: Date.UTC(2025, 0, 1, 2), value: '9000', ts: '2025-01-01T02:00:00Z' },
  ];

  it('a rise above the bound: implausible_rise, on the new reading’s line', () => {
    const [rise] = jumpProblems(
      [{ ...jump, ms0: Date.UTC(2025, 0, 1, 0), ms1: Date.UTC(2025, 0, 1, 2), v0: '100', v1: '9000' }],
      batch,
    );
    expect(rise).toEqual({
      line: 5,
      code: 'implausible_rise',
      params: {
        meter: 'H-1',
        at: '2025-01-01T02:00:00.000Z',
        from: '100',
        to: '9000',
        hours: '2',
        perHour: '1000',
        quantity: 'heat-energy',
      },
      reason:
        'meter H-1 at 2025-01-01T02:00:00.000Z rises from 100 to 9000 in 2 h, above the plausible 1000 per hour for heat-energy',
    });
  });

  it('a drop that is no reset: implausible_drop', () => {
    const [drop] = jumpProblems(
      [{ ...jump, ms0: Date.UTC(2025, 0, 1, 0), ms1: Date.UTC(2025, 0, 1, 2), v0: '20000', v1: '9000' }],
      batch,
    );
    expect(drop).toMatchObject({
      line: 5,
      code: 'implausible_drop',
      params: {
        meter: 'H-1',
        from: '20000',
        to: '9000',
        hours: '2',
        resetPercent: expect.any(Number),
        limit: 2000,
        quantity: 'heat-energy',
      },
    });
    expect(drop!.reason).toMatch(
      /^meter H-1 at 2025-01-01T02:00:00.000Z drops from 20000 to 9000: a register reset/,
    );
  });
});

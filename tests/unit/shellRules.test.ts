import { describe, expect, it } from 'vitest';
import {
  debugPress,
  isDynamicImportFailure,
  loadErrorAction,
  parallelLimit,
  retryDelay,
  withRetries,
} from '../../src/lib/shellRules.ts';

describe('shell rules', () => {
  it('dumps on the third Ctrl+S within 2 s, not when the presses are spread out', () => {
    let s = debugPress([], 0);
    s = debugPress(s.presses, 900);
    expect(s.dump).toBe(false);
    expect(debugPress(s.presses, 1999).dump).toBe(true);
    expect(debugPress(s.presses, 2000).dump).toBe(false); // the first press has aged out
  });

  it('recognises dynamic-import failures of Chromium, Firefox and Safari only', () => {
    expect(
      isDynamicImportFailure(new TypeError('Failed to fetch dynamically imported module: /_astro/x.js')),
    ).toBe(true);
    expect(isDynamicImportFailure(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isDynamicImportFailure(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isDynamicImportFailure(new Error('Network request failed'))).toBe(false);
    expect(isDynamicImportFailure(undefined)).toBe(false);
  });

  it('a failed lazy load reloads when it is a dynamic-import failure, and goes to login otherwise', () => {
    expect(loadErrorAction(new TypeError('Failed to fetch dynamically imported module: /_astro/x.js'))).toBe(
      'reload',
    );
    expect(loadErrorAction(new TypeError('Importing a module script failed.'))).toBe('reload');
    expect(loadErrorAction(new ReferenceError('process is not defined'))).toBe('login');
    expect(loadErrorAction(new Error('Invalid component export path: x'))).toBe('login');
    expect(loadErrorAction(undefined)).toBe('login');
  });

  it('retries translation loads 5 times from 350 ms, doubling', async () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n))).toEqual([350, 700, 1400, 2800, 5600]);
    const waits: number[] = [];
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new Error('offline'));
    };
    await expect(withRetries(failing, undefined, async (ms) => void waits.push(ms))).rejects.toThrow(
      'offline',
    );
    expect(calls).toBe(6);
    expect(waits).toEqual([350, 700, 1400, 2800, 5600]);
    let n = 0;
    expect(
      await withRetries(
        async () => (++n < 3 ? Promise.reject(new Error('x')) : 'ok'),
        undefined,
        async () => {},
      ),
    ).toBe('ok');
  });

  it('runs at most 10 reads at once', async () => {
    const limit = parallelLimit(10);
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 25 }, () =>
        limit(async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 5));
          running--;
        }),
      ),
    );
    expect(peak).toBe(10);
  });
});

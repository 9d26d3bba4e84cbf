import { describe, expect, it } from 'vitest';
import { MAX_VISIBLE_TOASTS, toastDuration } from '../../src/lib/toastPolicy.ts';

describe('toast policy (SPEC §9)', () => {
  it('shows every toast in the auth flows for 3000 ms', () => {
    for (const kind of ['plain', 'success', 'error', 'loading', 'custom'] as const) {
      expect(toastDuration('auth', kind)).toBe(3000);
    }
  });

  it('uses the data-view durations', () => {
    expect(toastDuration('data', 'plain')).toBe(4000);
    expect(toastDuration('data', 'error')).toBe(4000);
    expect(toastDuration('data', 'success')).toBe(2000);
    expect(toastDuration('data', 'custom')).toBe(4000);
    expect(toastDuration('data', 'loading')).toBe(Number.POSITIVE_INFINITY);
  });

  it('shows at most 20', () => {
    expect(MAX_VISIBLE_TOASTS).toBe(20);
  });
});

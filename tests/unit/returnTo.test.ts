import { describe, expect, it } from 'vitest';
import { parseReturnTo, returnablePath } from '../../src/client/returnTo.ts';

describe('returnTo', () => {
  it('keeps an app page with its query and hash', () => {
    const url = new URL(
      'https://app.test/t/12/consumption/heat-energy?startDate=2026-01-05&endDate=2026-01-11#x',
    );
    expect(returnablePath(url)).toBe(
      '/t/12/consumption/heat-energy?startDate=2026-01-05&endDate=2026-01-11#x',
    );
  });
  it('keeps no login, public or dashboard page', () => {
    for (const path of ['/login', '/report/ABC', '/t/12/', '/t/', '/'])
      expect(returnablePath(new URL(`https://app.test${path}`))).toBeNull();
  });
  it('never gives back a path that leaves the origin, whatever storage holds', () => {
    for (const value of [
      '//evil.test/t/1/x',
      '/t//evil.test',
      '/\\evil.test',
      'https://evil.test/t/1/x',
      42,
      null,
    ])
      expect(parseReturnTo(value)).toBeNull();
    expect(parseReturnTo('/t/1/alarms')).toBe('/t/1/alarms');
  });
});

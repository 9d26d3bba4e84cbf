/** What the periods unit tests share: short period builders and an arbitrary calendar date. */
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import type { Period } from '../../src/lib/periods.ts';

export const d = (s: string) => Temporal.PlainDate.from(s);
export const p = (startDate: string, endDate: string): Period => ({ startDate, endDate });
// A range of n days (inclusive) starting at a date.
export const ofDays = (start: string, n: number): Period =>
  p(
    start,
    d(start)
      .add({ days: n - 1 })
      .toString(),
  );

export const dateArb = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true })
  .map((x) => Temporal.PlainDate.from(x.toISOString().slice(0, 10)));

/**
 * What the parts of the live-ingestion bench (tests/bench/ingest-live.ts) share: the hour, the demo's size, the
 * machine line printed beside each figure, p95 and median, and two bare properties of register meters.
 */
import os from 'node:os';
import type { Db } from '../../../src/server/db/client.ts';
import {
  accounts,
  apartments,
  measurementPoints,
  meters,
  properties,
} from '../../../src/server/db/schema.ts';

export const HOUR = 3_600_000;
export const APARTMENTS = 6;

export function machine(): string {
  const [l1, l5] = os.loadavg();
  return `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load average ${l1!.toFixed(1)} / ${l5!.toFixed(1)} (1 / 5 min)`;
}

export function p95(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? Number.NaN;
}
export const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Two properties of `meters` registers each; returns their meter numbers. */
export async function twoProperties(db: Db, count: number): Promise<string[][]> {
  const [account] = await db.insert(accounts).values({ name: 'Bench' }).returning();
  const out: string[][] = [];
  for (const n of ['P-A', 'P-B']) {
    const [p] = await db
      .insert(properties)
      .values({ accountId: account!.id, number: n, address: 'Benchvej 1', zipcode: '8000', city: 'Aarhus' })
      .returning();
    const [apt] = await db
      .insert(apartments)
      .values({
        propertyId: p!.id,
        uniqueId: `${n}-1`,
        apartment: '1',
        address: 'Benchvej 1',
        zipcode: '8000',
        city: 'Aarhus',
        areaM2: '70',
        rooms: 3,
      })
      .returning();
    const numbers: string[] = [];
    for (let i = 0; i < count; i++) {
      const [mp] = await db
        .insert(measurementPoints)
        .values({
          propertyId: p!.id,
          apartmentId: apt!.id,
          quantity: 'electricity-energy',
          unit: 'kilo-watt-hour',
          name: `E${i}`,
          readingKind: 'register',
        })
        .returning();
      const number = `${n}-E${i}`;
      await db
        .insert(meters)
        .values({ measurementPointId: mp!.id, number, legacyKind: 'electricity', installedAt: new Date(0) });
      numbers.push(number);
    }
    out.push(numbers);
  }
  return out;
}

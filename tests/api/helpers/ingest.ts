/**
 * The ingestion tests' property: two flats (A1 of 50 m², A2 of 100 m²) on a fresh database per test file, and
 * measurement points with meters on them.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import type { Database, Db } from '../../../src/server/db/client.ts';
import { measurementPoints, meters } from '../../../src/server/db/schema.ts';
import { queryRows } from '../../../src/server/db/sql.ts';
import type { ReadingRow } from '../../../src/server/ingest/ingest.ts';
import { freshDatabase } from './db.ts';
import { testProperty } from './property.ts';

export interface IngestProperty {
  db: Db;
  propertyId: number;
  smallApartment: number;
  largeApartment: number;
  /** Creates a measurement point with meters (installed from 2024 unless given); returns the point id. */
  point(
    quantity: string,
    kind: 'register' | 'instantaneous',
    meterSpecs: { number: string; installed?: string; removed?: string }[],
    apartmentId?: number | null,
  ): Promise<number>;
  /** The number of rows in a table. */
  count(table: string): Promise<number>;
}

/**
 * Opens the database with the property in the file's beforeAll and closes it in afterAll. The returned object's
 * fields are set from beforeAll on; its functions can be taken apart at once.
 */
export function ingestTestProperty(): IngestProperty {
  let database: Database | undefined;
  const fx = {
    async point(quantity, kind, meterSpecs, apartmentId = fx.smallApartment) {
      const [p] = await fx.db
        .insert(measurementPoints)
        .values({
          propertyId: fx.propertyId,
          apartmentId,
          quantity,
          unit: 'kilo-watt-hour',
          name: quantity,
          readingKind: kind,
        })
        .returning();
      await fx.db.insert(meters).values(
        meterSpecs.map((m) => ({
          measurementPointId: p!.id,
          number: m.number,
          legacyKind: 'energy',
          installedAt: new Date(m.installed ?? '2024-01-01T00:00:00Z'),
          removedAt: m.removed ? new Date(m.removed) : null,
        })),
      );
      return p!.id;
    },
    async count(table) {
      const [row] = await queryRows<{ n: number }>(fx.db, sql.raw(`SELECT count(*)::int AS n FROM ${table}`));
      return Number(row!.n);
    },
  } as IngestProperty;
  beforeAll(async () => {
    database = await freshDatabase();
    const made = await testProperty(database.db, [
      { uniqueId: 'A1', areaM2: '50' },
      { uniqueId: 'A2', areaM2: '100' },
    ]);
    const [small, large] = made.apartmentIds as [number, number];
    Object.assign(fx, {
      db: database.db,
      propertyId: made.propertyId,
      smallApartment: small,
      largeApartment: large,
    });
  });
  afterAll(async () => {
    await database?.close();
  });
  return fx;
}

/** Register readings of one meter, on lines 2, 3, … of a file. */
export function rows(meterNumber: string, readings: [string, string][]): ReadingRow[] {
  return readings.map(([ts, value], i) => ({ line: i + 2, meterNumber, ts, value }));
}

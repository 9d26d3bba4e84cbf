/**
 * alignedHours.ts computes an aligned hour's consumption in the app; it must equal what the SQL paths compute
 * (DELTA_WRAPPED, then trim_scale) for every pair of readings: rises, resets, rollovers, any scale.
 */
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { pgNumberArray, queryRows } from '../../src/server/db/sql.ts';
import { hourDelta } from '../../src/server/ingest/alignedHours.ts';
import { DELTA_WRAPPED } from '../../src/server/ingest/sqlParts.ts';
import { freshDatabase } from './helpers/db.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** A canonical decimal as ingestion hands it on (parse.ts), or as PostgreSQL prints a stored one. */
const decimalText = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 6 }), fc.boolean())
  .map(([n, scale, padded]) => {
    const digits = n.toString().padStart(scale + 1, '0');
    const text = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
    return padded && scale > 0 ? `${text}00` : text;
  });

describe('an aligned hour computed in the app', () => {
  it('equals the SQL delta for rises, resets and rollovers at any scale', async () => {
    const pairs = fc.sample(
      fc.record({
        v0: decimalText,
        v1: decimalText,
        digits: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }),
      }),
      { numRuns: 400, seed: 19 },
    );
    // Near a rollover's edge too: the top tenth of a register of `digits` digits.
    pairs.push(
      { v0: '99998.5', v1: '1.25', digits: 5 },
      { v0: '90000', v1: '3', digits: 5 },
      { v0: '89999.999', v1: '3', digits: 5 },
      { v0: '0', v1: '0', digits: null },
    );
    const rows = await queryRows<{ i: number; delta: string }>(
      database.db,
      sql`SELECT i::int AS i, trim_scale(${DELTA_WRAPPED})::text AS delta
          FROM unnest(${pgNumberArray(pairs.map((p) => p.v0))}::numeric[],
                      ${pgNumberArray(pairs.map((p) => p.v1))}::numeric[],
                      ${pgNumberArray(pairs.map((p) => p.digits ?? 'NULL'))}::int[])
               WITH ORDINALITY AS x(v0, v1, digits, i)
          ORDER BY i`,
    );
    const app = pairs.map((p) => hourDelta(p.v0, p.v1, p.digits));
    expect(app).toEqual(rows.map((r) => r.delta));
  });
});

/**
 * The demo's data-quality queue (src/server/demo/dataIssues.ts): a first start sends three misreads through the
 * ingestion path, which quarantines each with its evidence and leaves the hour it sat in unknown; the demo
 * logins' apartments (1–3) get none.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { DEMO_ISSUE_SOURCE, seedDemoDataIssues } from '../../src/server/demo/dataIssues.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { freshDatabase } from './helpers/db.ts';

const now = new Date('2026-03-28T10:20:00Z');
const HOUR = 3_600_000;
const newest = Date.parse('2026-03-28T10:00:00Z');
const databases: Database[] = [];

afterAll(async () => {
  for (const d of databases) await d.close();
});

describe('the demo data issues', () => {
  it('quarantines a digit shift, a drop and a jump in apartments 4–6, each hour it sat in unknown', async () => {
    const database = await freshDatabase();
    databases.push(database);
    const { db } = database;
    await seedDemo(db, { now, days: 4, apartments: 6 });
    const hours = async (meter: string, from: number, to: number) =>
      (
        await queryRows<{ ms: number }>(
          db,
          sql`SELECT (extract(epoch FROM h.hour_start) * 1000)::float8 AS ms FROM hourly_consumption h
              JOIN meters m ON m.measurement_point_id = h.measurement_point_id
              WHERE m.number = ${meter} AND h.hour_start >= ${new Date(from).toISOString()}::timestamptz
                AND h.hour_start <= ${new Date(to).toISOString()}::timestamptz ORDER BY 1`,
        )
      ).map((r) => Number(r.ms));
    const heatHour = newest - 29 * HOUR;
    expect(await hours('EN-1001-004', heatHour - HOUR, heatHour + HOUR)).toEqual([
      heatHour - HOUR,
      heatHour,
      heatHour + HOUR,
    ]);

    expect(await seedDemoDataIssues(db, now)).toBe(3);

    const issues = await queryRows<{
      kind: string;
      number: string;
      ts: string;
      source: string;
      before: string;
    }>(
      db,
      sql`SELECT i.kind, m.number, to_char(i.reading_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS ts, i.source,
                 i.evidence->'before'->>'value' AS before
          FROM data_issues i JOIN meters m ON m.id = i.meter_id ORDER BY m.number`,
    );
    expect(issues.map(({ kind, number, ts, source }) => ({ kind, number, ts, source }))).toEqual([
      { kind: 'drop', number: 'CW-1001-005', ts: '2026-03-26T05:30', source: DEMO_ISSUE_SOURCE },
      { kind: 'jump', number: 'EL-1001-006', ts: '2026-03-28T04:30', source: DEMO_ISSUE_SOURCE },
      { kind: 'digit-shift', number: 'EN-1001-004', ts: '2026-03-27T05:30', source: DEMO_ISSUE_SOURCE },
    ]);
    // The evidence names the reading before, which the misread came from.
    for (const i of issues) expect(Number(i.before)).toBeGreaterThan(0);
    // The misread is not a reading; the hour it sat in is unknown, the hours either side are not.
    const [stored] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM register_readings WHERE extract(minute FROM ts) <> 0`,
    );
    expect(stored!.n).toBe(0);
    expect(await hours('EN-1001-004', heatHour - HOUR, heatHour + HOUR)).toEqual([
      heatHour - HOUR,
      heatHour + HOUR,
    ]);
    // The demo logins' apartments are whole.
    const [own] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM data_issues i JOIN meters m ON m.id = i.meter_id
          WHERE m.number ~ '-1001-00[123]'`,
    );
    expect(own!.n).toBe(0);
  });

  it('leaves out a misread whose apartment the demo does not have', async () => {
    const database = await freshDatabase();
    databases.push(database);
    await seedDemo(database.db, { now, days: 4, apartments: 4 });
    expect(await seedDemoDataIssues(database.db, now)).toBe(1);
    const [n] = await queryRows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM data_issues`);
    expect(n!.n).toBe(1);
  });
});

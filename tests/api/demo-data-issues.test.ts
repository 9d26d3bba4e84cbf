/**
 * The demo's data-quality queue (src/server/demo/dataIssues.ts): a first start sends three misreads through the
 * ingestion path, which quarantines each with its evidence and leaves the hour it sat in unknown; the demo
 * logins' apartments (1–3) get none. And the demo's history has a silent and a stuck meter (model.ts), which the
 * worker's meter check files.
 */
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import { catchUpDemo } from '../../src/server/demo/catchUp.ts';
import { DEMO_ISSUE_SOURCE, seedDemoDataIssues } from '../../src/server/demo/dataIssues.ts';
import { seedDemo } from '../../src/server/demo/seed.ts';
import { listIssues } from '../../src/server/ingest/issues.ts';
import {
  checkMeterHealth,
  DEFAULT_SILENT_HOURS,
  DEFAULT_STUCK_DAYS,
} from '../../src/server/ingest/meterHealth.ts';
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
    // The evidence names the reading before, which the misread came from, and the interval refused: from that
    // reading to the misread.
    for (const i of issues) expect(Number(i.before)).toBeGreaterThan(0);
    const intervals = await queryRows<{ from_is_before: boolean; to_is_reading: boolean }>(
      db,
      sql`SELECT i.evidence->'interval'->'from' = i.evidence->'before' AS from_is_before,
                 (i.evidence->'interval'->'to'->>'ts')::timestamptz = i.reading_ts AS to_is_reading
          FROM data_issues i`,
    );
    expect(intervals).toEqual(Array(3).fill({ from_is_before: true, to_is_reading: true }));
    // The queue names each meter's flat by its address.
    const [flat] = await queryRows<{ address: string }>(
      db,
      sql`SELECT address FROM apartments WHERE unique_id = '1001-004'`,
    );
    const listed = await listIssues(db);
    expect(listed.find((i) => i.meterNumber === 'EN-1001-004')?.apartment).toBe(flat!.address);
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

  it("has a silent meter and a stuck one in flats 7 and 8, which the worker's meter check files, after a catch-up too", async () => {
    const database = await freshDatabase();
    databases.push(database);
    const { db } = database;
    await seedDemo(db, { now, days: 14, apartments: 8 });
    const health = { silentHours: DEFAULT_SILENT_HOURS, stuckDays: DEFAULT_STUCK_DAYS };
    expect(await checkMeterHealth(db, now, health)).toEqual({ silent: 1, stuck: 1, closed: 0 });
    const findings = async () =>
      queryRows<{ kind: string; number: string; last: string }>(
        db,
        sql`SELECT i.kind, m.number, i.evidence->'last'->>'ts' AS last
            FROM data_issues i JOIN meters m ON m.id = i.meter_id ORDER BY i.kind`,
      );
    expect(await findings()).toEqual([
      // Its last reading 60 hours before the history's newest hour (10:00 UTC).
      { kind: 'silent', number: 'HW-1001-007', last: '2026-03-25T22:00:00.000Z' },
      { kind: 'stuck', number: 'CW-1001-008', last: '2026-03-28T10:00:00.000Z' },
    ]);
    // The stuck register sends its value every hour; its flat's cold water is 0 since it stuck.
    const [stuck] = await queryRows<{ n: number; moved: number }>(
      db,
      sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE h.value <> 0)::int AS moved
          FROM hourly_consumption h JOIN meters m ON m.measurement_point_id = h.measurement_point_id
          WHERE m.number = 'CW-1001-008' AND h.hour_start >= '2026-03-19T10:00:00Z'`,
    );
    expect(stuck).toEqual({ n: 9 * 24, moved: 0 });
    // A later start catches the demo up: the silent meter stays silent, the stuck one stuck; no second finding.
    const later = new Date(now.getTime() + 5 * HOUR);
    await catchUpDemo(db, { now: later });
    expect(await checkMeterHealth(db, later, health)).toEqual({ silent: 0, stuck: 0, closed: 0 });
    const [newest] = await queryRows<{ last: string }>(
      db,
      sql`SELECT max(r.ts)::text AS last FROM register_readings r JOIN meters m ON m.id = r.meter_id
          WHERE m.number = 'HW-1001-007'`,
    );
    expect(new Date(newest!.last).toISOString()).toBe('2026-03-25T22:00:00.000Z');
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

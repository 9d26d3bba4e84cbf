/**
 * DATABASE_REPLICA_URL against a real streaming replica made here: `pg_basebackup -R` of the test PostgreSQL into a
 * temporary folder, started with `pg_ctl` on a free port. Shows that the tenant backend's data reads go to the
 * replica (a change on the primary whose replay is paused is not in the graph), that the token check and writes go
 * to the primary, the lag bound (past DATABASE_REPLICA_MAX_LAG_MS the graph comes from the primary), and the
 * fallback when the replica stops. PostgreSQL only: skipped, with the reason in the test's name, without
 * TEST_DATABASE_URL, without PostgreSQL's server binaries, or when the server does not allow replication.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import { parseServerConfig } from '../../src/server/config.ts';
import { connectPostgres, type Database } from '../../src/server/db/client.ts';
import { openReplicaRouter, type ReplicaRouter } from '../../src/server/db/replica.ts';
import { getMetrics } from '../../src/server/metrics.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';

const adminUrl = process.env.TEST_DATABASE_URL;

/** Why the replica cannot be made here, or null when it can (asked of the server and the file system). */
async function whyNoReplica(): Promise<{ reason: string | null; bin: string }> {
  if (!adminUrl) return { reason: 'needs PostgreSQL (TEST_DATABASE_URL)', bin: '' };
  const admin = await connectPostgres(adminUrl, { max: 1 });
  try {
    const [row] = await admin.unsafe<
      Array<{ major: string; wal: string; senders: number; slots: number; allowed: boolean }>
    >(`SELECT current_setting('server_version_num')::int / 10000 AS major,
              current_setting('wal_level') AS wal, current_setting('max_wal_senders')::int AS senders,
              current_setting('max_replication_slots')::int AS slots,
              (SELECT rolsuper OR rolreplication FROM pg_roles WHERE rolname = current_user) AS allowed`);
    const bin = `/usr/lib/postgresql/${row!.major}/bin`;
    if (!existsSync(join(bin, 'pg_basebackup')) || !existsSync(join(bin, 'pg_ctl')))
      return { reason: `no PostgreSQL ${row!.major} server binaries in ${bin}`, bin };
    if (row!.wal === 'minimal') return { reason: 'the server has wal_level = minimal', bin };
    if (row!.senders < 1) return { reason: 'the server has max_wal_senders = 0', bin };
    if (row!.slots < 1) return { reason: 'the server has max_replication_slots = 0', bin };
    if (!row!.allowed) return { reason: 'the test role may not replicate', bin };
    return { reason: null, bin };
  } finally {
    await admin.end({ timeout: 5 });
  }
}

// The configuration checks need no replica: both engines.
describe('DATABASE_REPLICA_URL configuration', () => {
  it('needs DATABASE_URL, and a check interval of at most half the lag bound', () => {
    const replica = 'postgres://u:p@127.0.0.1:5433/db';
    expect(() => parseServerConfig({ DATABASE_REPLICA_URL: replica })).toThrow(/needs DATABASE_URL/);
    expect(() =>
      parseServerConfig({
        DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
        DATABASE_REPLICA_URL: replica,
        DATABASE_REPLICA_MAX_LAG_MS: '1000',
        DATABASE_REPLICA_CHECK_MS: '600',
      }),
    ).toThrow(/DATABASE_REPLICA_CHECK_MS/);
    const config = parseServerConfig({
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
      DATABASE_REPLICA_URL: replica,
    });
    expect(config).toMatchObject({ DATABASE_REPLICA_MAX_LAG_MS: 5000, DATABASE_REPLICA_CHECK_MS: 1000 });
    expect(() => parseServerConfig({ DATABASE_REPLICA_URL: 'mysql://x' })).toThrow(/postgres:\/\//);
  });
});

const { reason: skipReason, bin } = await whyNoReplica();

/** A free TCP port on the loopback address. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL program as the `postgres` OS user when this is root (the server refuses to run as root). */
function pgRun(program: string, args: string[], env: Record<string, string> = {}): string {
  const asRoot = process.getuid?.() === 0;
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', 'env', ...envArgs, join(bin, program), ...args]]
    : ['env', [...envArgs, join(bin, program), ...args]];
  return execFileSync(file, argv as string[], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe.skipIf(skipReason !== null)(
  `read replica (pg_basebackup)${skipReason ? `: skipped, ${skipReason}` : ''}`,
  () => {
    let database: Database;
    let fx: Fixture;
    let dir: string;
    let dataDir: string;
    let replicaUrl: string;
    let running = false;
    let api: TestApi;
    let router: ReplicaRouter;
    let clock = Date.now();
    const slot = `replica_test_${process.pid}_${Date.now()}`;

    const startReplica = () => {
      try {
        pgRun('pg_ctl', ['-D', dataDir, '-l', join(dir, 'replica.log'), '-w', '-t', '120', 'start']);
      } catch (err) {
        throw new Error(`the replica did not start: ${readFileSync(join(dir, 'replica.log'), 'utf8')}`, {
          cause: err,
        });
      }
      running = true;
    };
    const stopReplica = () => {
      pgRun('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '120', 'stop']);
      running = false;
    };
    /** Asks the replica once (a new connection each time, so a stopped replica leaves nothing open). */
    const onReplica = async <T>(query: string): Promise<T[]> => {
      const client = await connectPostgres(replicaUrl, { max: 1 });
      try {
        return await client.unsafe<T[]>(query);
      } finally {
        await client.end({ timeout: 5 });
      }
    };
    /** Checks the replica until reads go there (the clock moves on 100 ms a try). */
    const untilOnReplica = async (r: ReplicaRouter, move = true) => {
      for (let i = 0; i < 300 && r.state().target !== 'replica'; i++) {
        if (move) clock += 100;
        await r.check();
        if (r.state().target !== 'replica') await new Promise((ok) => setTimeout(ok, 100));
      }
      expect(r.state()).toMatchObject({ target: 'replica', reason: null });
    };

    beforeAll(async () => {
      database = await freshDatabase();
      fx = await seedFixture(database.db);
      const [{ name }] = (await database.db.execute(
        sql.raw('SELECT current_database() AS name'),
      )) as unknown as [{ name: string }];
      dir = mkdtempSync(join(tmpdir(), 'replica-test-'));
      if (process.getuid?.() === 0) {
        const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
        const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
        chownSync(dir, uid, gid);
      }
      dataDir = join(dir, 'data');
      const primary = new URL(adminUrl!);
      const port = await freePort();
      // -R: the copy starts as a standby that streams from the primary (standby.signal, primary_conninfo). -C -S: through
      // a new replication slot, so the primary keeps the WAL the copy has not received yet (a busy primary recycled
      // it before the copy started, without one); dropped in afterAll.
      pgRun(
        'pg_basebackup',
        [
          ...[
            '-h',
            primary.hostname,
            '-p',
            primary.port || '5432',
            '-U',
            decodeURIComponent(primary.username),
          ],
          ...['-D', dataDir, '-R', '-X', 'stream', '-c', 'fast', '-C', '-S', slot],
        ],
        { PGPASSWORD: decodeURIComponent(primary.password) },
      );
      // Debian keeps the primary's postgresql.conf and pg_hba.conf outside its data folder: the copy gets its own.
      writeFileSync(
        join(dataDir, 'postgresql.conf'),
        [
          `port = ${port}`,
          `listen_addresses = '127.0.0.1'`,
          `unix_socket_directories = '${dir}'`,
          'hot_standby = on',
          '',
        ].join('\n'),
      );
      writeFileSync(
        join(dataDir, 'pg_hba.conf'),
        'local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n',
      );
      writeFileSync(join(dataDir, 'pg_ident.conf'), '');
      startReplica();
      const url = new URL(adminUrl!);
      url.host = `127.0.0.1:${port}`;
      url.pathname = `/${name}`;
      replicaUrl = url.toString();

      api = await createTestApi(database);
      router = await openReplicaRouter({
        url: replicaUrl,
        primary: database.db,
        maxLagMs: 5000,
        checkIntervalMs: 0,
        now: () => clock,
      });
      api.services.replica = router;
    }, 600_000);

    afterAll(async () => {
      await router?.close();
      if (running) stopReplica();
      // The slot keeps WAL on the primary for as long as it exists.
      const admin = await connectPostgres(adminUrl!, { max: 1 });
      await admin
        .unsafe('SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1', [
          slot,
        ])
        .finally(() => admin.end({ timeout: 5 }));
      await database?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /** Alice's heat energy on 2025-03-01, hour by hour, as the tenant API answers. */
    async function hourGraph(token: string): Promise<{ values: number[]; code?: string }> {
      const res = await gql<{ tenantGraph: { graphs: Array<{ consumption: Array<{ values: number[] }> }> } }>(
        api.tenant,
        'query ($g: TenantGraphInput!) { tenantGraph(graph: $g) { graphs { consumption { values } } } }',
        {
          g: {
            graphType: 'HOURLY_VALUES',
            resolution: 'HOUR',
            periodBegin: '2025-03-01T00:00',
            periodEnd: '2025-03-02T00:00',
            objects: [{ kind: 'UNIT', id: String(fx.apartmentA) }],
            quantities: ['heat-energy'],
          },
        },
        token,
      );
      const code = errorCode(res);
      return {
        values: res.data?.tenantGraph.graphs[0]?.consumption[0]?.values ?? [],
        ...(code ? { code } : {}),
      };
    }
    const routed = async (target: 'replica' | 'primary') =>
      (await getMetrics().dbReads.get()).values.find((v) => v.labels.target === target)?.value ?? 0;

    it('serves graphs from the replica, checks tokens and writes on the primary, and keeps the lag bound', async () => {
      await untilOnReplica(router);
      const alice = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 300)).token;
      const bob = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.bob, 300)).token;
      const before = await hourGraph(alice);
      expect(before.values).toHaveLength(24);
      expect(before.values.every((v) => v > 0)).toBe(true);
      expect((await hourGraph(bob)).code).toBe('FORBIDDEN'); // Bob has no tenancy in apartment A

      // The replica stops replaying; the primary changes the day's values and deactivates Bob.
      await onReplica('SELECT pg_wal_replay_pause()');
      for (let i = 0; i < 100; i++) {
        const [p] = await onReplica<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state');
        if (p?.state === 'paused') break;
        await new Promise((ok) => setTimeout(ok, 100));
      }
      await database.db.execute(
        sql.raw(`UPDATE hourly_consumption SET value = value + 1000 WHERE measurement_point_id = ${fx.points.heatA}
         AND hour_start >= '2025-02-28T23:00Z' AND hour_start < '2025-03-01T23:00Z'`),
      );
      await database.db.execute(sql.raw(`UPDATE users SET is_active = false WHERE id = ${fx.users.bob.id}`));
      const changed = before.values.map((v) => v + 1000);

      // The replica is fresh as of `fresh` (the newest primary position it replayed before the pause; a busy
      // primary, other databases of the cluster included, can keep it a few checks behind).
      await router.check();
      const fresh = router.state().freshAt!;
      // Within the bound: the graph is the replica's (without the change), the token check the primary's.
      // (The clock only moves forward: the router's freshness is a claim about the order of real events.)
      clock = Math.max(clock, fresh + 4000);
      expect(router.state().target).toBe('replica');
      const replicaReads = await routed('replica');
      expect((await hourGraph(alice)).values).toEqual(before.values);
      expect(await routed('replica')).toBeGreaterThan(replicaReads);
      expect((await hourGraph(bob)).code).toBe('UNAUTHENTICATED'); // the replica still has Bob active
      const [onStandby] = await onReplica<{ active: boolean }>(
        `SELECT is_active AS active FROM users WHERE id = ${fx.users.bob.id}`,
      );
      expect(onStandby?.active).toBe(true);

      // Writes go to the primary (the replica refuses them).
      const [tenancy] = (await database.db.execute(
        sql.raw(`SELECT tenancy_id AS id FROM tenancy_members WHERE user_id = ${fx.users.alice.id} LIMIT 1`),
      )) as unknown as [{ id: number }];
      const write = await gql<{ markAllNotificationsRead: { ok: boolean } }>(
        api.tenant,
        'mutation ($t: ID!) { markAllNotificationsRead(tenancyId: $t) { ok count } }',
        { t: String(tenancy.id) },
        alice,
      );
      expect(write.errors).toBeUndefined();
      expect(write.data?.markAllNotificationsRead.ok).toBe(true);
      await expect(onReplica('CREATE TABLE replica_write_probe (x int)')).rejects.toThrow(/read-only/);

      // Past the bound (replay still paused: each check's new position is not replayed): the primary's graph.
      clock = fresh + 5001;
      await router.check();
      expect(router.state().freshAt).toBe(fresh);
      expect(router.state()).toMatchObject({ target: 'primary', reason: 'behind' });
      const primaryReads = await routed('primary');
      expect((await hourGraph(alice)).values).toEqual(changed);
      expect(await routed('primary')).toBeGreaterThan(primaryReads);

      // Replay resumes: the replica catches up and serves again, now with the change.
      await onReplica('SELECT pg_wal_replay_resume()');
      await untilOnReplica(router);
      expect((await hourGraph(alice)).values).toEqual(changed);
    }, 300_000);

    it('falls back to the primary at once when the replica stops, and returns to it when it is back', async () => {
      const alice = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 300)).token;
      expect(router.state().target).toBe('replica');
      const expected = (await hourGraph(alice)).values;
      stopReplica();
      const fallbacks = (await getMetrics().replicaFallbacks.get()).values[0]?.value ?? 0;
      // Routed to the replica, its statement fails for the connection and runs on the primary: no error.
      expect(await hourGraph(alice)).toEqual({ values: expected });
      expect((await getMetrics().replicaFallbacks.get()).values[0]?.value).toBeGreaterThan(fallbacks);
      expect(router.state()).toMatchObject({ target: 'primary', reason: 'down' });
      await router.check();
      expect(router.state()).toMatchObject({ target: 'primary', reason: 'down' });
      expect(await hourGraph(alice)).toEqual({ values: expected });

      startReplica();
      // With the real clock and its own checks every 200 ms, a new router finds the replica fresh by itself.
      const timed = await openReplicaRouter({
        url: replicaUrl,
        primary: database.db,
        maxLagMs: 5000,
        checkIntervalMs: 200,
      });
      try {
        for (let i = 0; i < 600 && timed.state().target !== 'replica'; i++)
          await new Promise((ok) => setTimeout(ok, 100));
        expect(timed.state()).toMatchObject({ target: 'replica', reason: null });
      } finally {
        await timed.close();
      }
      await untilOnReplica(router);
      expect(await hourGraph(alice)).toEqual({ values: expected });
    }, 300_000);

    it('never routes to a server that is not in recovery', async () => {
      const notReplica = await openReplicaRouter({
        url: new URL(`/${new URL(replicaUrl).pathname.slice(1)}`, adminUrl!).toString(),
        primary: database.db,
        maxLagMs: 5000,
        checkIntervalMs: 0,
      });
      try {
        expect(notReplica.state()).toMatchObject({ target: 'primary', reason: 'not-a-replica' });
        expect(notReplica.readDb()).toBe(database.db);
      } finally {
        await notReplica.close();
      }
    });
  },
);

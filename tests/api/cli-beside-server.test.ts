/**
 * The CLI beside a running server on the embedded database (issue 25): the server's folder is locked, so a second
 * server, a worker or `db:migrate` is refused with a clear message, and the CLI works through the server's PGlite
 * worker instead of opening the files. 20 CLI runs (4 at a time) beside a server that answers requests
 * meanwhile: every run succeeds, and every code it printed is in the database after the server has stopped.
 * PGlite only: the lock and the socket are the embedded database's (the PostgreSQL run would repeat it).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client.ts';
import { activationCodes, tenancies } from '../../src/server/db/schema.ts';
import { testEngine } from './helpers/db.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'cli-beside-server-'));
// APP_URL unset: the impersonation link must carry the running server's real origin.
const { APP_URL: _unset, ...inherited } = process.env;
const env = {
  ...inherited,
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'info',
};

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a server entry (cli.ts, worker.ts, …) to its end. */
function run(entry: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `src/server/${entry}`, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

let server: ChildProcess;
let serverLog = '';
let base = '';

describe.skipIf(testEngine === 'postgres')('the CLI beside a running server (PGlite)', () => {
  beforeAll(async () => {
    server = spawn(process.execPath, ['--import', 'tsx', 'src/server/serve-api.ts'], { env });
    base = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        serverLog += chunk;
        const found = /backends on (http:\/\/[^/\s]+)\//.exec(serverLog);
        if (found) resolve(found[1]!);
      };
      server.stdout?.on('data', onData);
      server.stderr?.on('data', onData);
      server.once('exit', (code) => reject(new Error(`server exited (${code}): ${serverLog}`)));
    });
  }, 600_000);

  afterAll(() => {
    if (server && server.exitCode === null) server.kill('SIGKILL');
  });

  it('refuses a second server, a worker and db:migrate on the open folder, with a clear message', async () => {
    for (const entry of ['serve-api.ts', 'worker.ts', 'migrate.ts']) {
      const refused = await run(entry);
      expect(refused.status, entry).toBe(1);
      expect(refused.stderr, entry).toContain(`is open in another process (pid ${server.pid}`);
    }
    expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);
  }, 600_000);

  it('runs 20 commands through the server while it serves requests; nothing lost', async () => {
    const file = join(dataDir, 'property.csv');
    writeFileSync(file, readFileSync('docs/examples/property.csv'));
    const imported = await run('cli.ts', 'import-property', file);
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toContain('2 tenancies');

    // The server keeps answering requests that use the database all along.
    let requests = 0;
    let failures = 0;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const res = await fetch(`${base}/api/health/ready`);
        requests++;
        if (res.status !== 200) failures++;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    const printed: string[] = [];
    for (let round = 0; round < 5; round++) {
      const runs = await Promise.all(
        Array.from({ length: 4 }, (_, i) => run('cli.ts', 'activation-code', `T-4001-${1 + (i % 2)}`)),
      );
      for (const r of runs) {
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
        const code = /: ([A-Z]{12}) \(valid until/.exec(r.stdout)?.[1];
        expect(code).toBeDefined();
        printed.push(code!);
      }
    }
    polling = false;
    await poller;
    expect(requests).toBeGreaterThan(0);
    expect(failures).toBe(0);

    // A link printed beside the server has the server's real origin (APP_URL is unset, the port was random).
    const signup = await fetch(`${base}/api/account/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          'mutation ($e: String!, $p: String!) { createEmailPasswordUser(email: $e, password: $p) { token } }',
        variables: { e: 'operator-check@example.test', p: 'Fjord-Lantern-42' },
      }),
    });
    expect(((await signup.json()) as { errors?: unknown }).errors).toBeUndefined();
    const link = await run('cli.ts', 'impersonate', 'operator-check@example.test', 'test');
    expect(link.status).toBe(0);
    expect(link.stdout).toContain(`${base}/impersonate/`);

    // A backup beside the running server goes through its database too (never its files).
    const backup = await run('cli.ts', 'backup', join(dataDir, 'beside.gz'));
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toMatch(/Backed up \d+ rows of \d+ tables/);

    // Stopped cleanly, then every code the CLI printed is there, unused.
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    expect(serverLog).not.toMatch(/"level":(50|60)/);
    const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    try {
      const rows = await database.db
        .select({ code: activationCodes.code })
        .from(activationCodes)
        .innerJoin(tenancies, eq(tenancies.id, activationCodes.tenancyId))
        .where(and(eq(tenancies.tenancyId, 'T-4001-1'), isNull(activationCodes.usedAt)));
      const all = await database.db.select({ code: activationCodes.code }).from(activationCodes);
      expect(rows.length).toBe(10);
      expect(new Set(all.map((r) => r.code))).toEqual(new Set(printed));
    } finally {
      await database.close();
    }
  }, 1_200_000);
});

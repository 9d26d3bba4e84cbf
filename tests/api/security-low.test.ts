/**
 * The low findings of issue 24, each from both sides of its boundary: GraphQL posts that are not JSON (a form on
 * any web site could send them without a CORS preflight) are refused before anything runs.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import { type Database, openDatabase } from '../../src/server/db/client.ts';
import { allocationStatements, mailOutbox, tenancies, users } from '../../src/server/db/schema.ts';
import { queryRows } from '../../src/server/db/sql.ts';
import type { BackendYoga } from '../../src/server/graphql/yoga.ts';
import { CliInputError } from '../../src/server/reports/cli.ts';
import { runStatementsCommand } from '../../src/server/statements/cli.ts';
import { handleStatementDownload } from '../../src/server/statements/download.ts';
import { importStatements, parseStatementFile } from '../../src/server/statements/import.ts';
import { call, Q } from './helpers/accountsApi.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { type Fixture, PASSWORD, seedFixture } from './helpers/fixtures.ts';
import { validStatement } from './helpers/statements.ts';

let database: Database;
let api: TestApi;
let fx: Fixture;

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  api = await createTestApi(database);
});
afterAll(async () => {
  await database?.close();
});

const RESET = 'mutation ($e: String!) { requestPasswordReset(email: $e) { ok } }';
const resetMails = async (to: string) =>
  (await database.db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.to, to))).length;

describe('GraphQL posts: JSON only (CSRF)', () => {
  /** Posts a body as a cross-site form could, with no preflight: form-encoded, multipart or text/plain. */
  async function simplePost(yoga: BackendYoga, body: BodyInit, contentType?: string) {
    const response = await yoga.fetch(`http://yoga${yoga.graphqlEndpoint}`, {
      method: 'POST',
      headers: { origin: 'https://evil.test', ...(contentType ? { 'content-type': contentType } : {}) },
      body,
    });
    return {
      status: response.status,
      requestId: response.headers.get('x-request-id'),
      body: (await response.json()) as { errors?: { extensions?: { code?: string } }[] },
    };
  }

  it('a form-encoded, multipart or text/plain mutation is refused with 415 on every backend and runs nothing', async () => {
    const email = fx.users.bob.email;
    const variables = JSON.stringify({ e: email });
    const form = new URLSearchParams({ query: RESET, variables });
    const multipart = new FormData();
    multipart.set('operations', JSON.stringify({ query: RESET, variables: { e: email } }));
    multipart.set('map', '{}');
    for (const yoga of [api.account, api.tenant, api.admin]) {
      for (const [body, type] of [
        [form.toString(), 'application/x-www-form-urlencoded'],
        [multipart, undefined],
        [JSON.stringify({ query: RESET, variables: { e: email } }), 'text/plain'],
      ] as const) {
        const r = await simplePost(yoga, body, type);
        expect(r.status).toBe(415);
        expect(r.body.errors?.[0]?.extensions?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
        // Like every other answer, the refusal carries its request id for the logs.
        expect(r.requestId).toMatch(/^[\w-]{8,}$/);
      }
    }
    expect(await resetMails(email)).toBe(0);
  });

  it('the same mutation posted as JSON runs (with a charset too)', async () => {
    const email = fx.users.alice.email;
    const r = await gql(api.account, RESET, { e: email });
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ requestPasswordReset: { ok: true } });
    const withCharset = await simplePost(
      api.account,
      JSON.stringify({ query: RESET, variables: { e: email } }),
      'application/json; charset=utf-8',
    );
    expect(withCharset.status).toBe(200);
    for (let i = 0; i < 100 && (await resetMails(email)) < 2; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await resetMails(email)).toBe(2);
  });

  it('GET still answers queries', async () => {
    const response = await api.account.fetch(
      `http://yoga${api.account.graphqlEndpoint}?query=${encodeURIComponent('{ __typename }')}`,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('the statement PDF route checks the caller as the GraphQL backends do', () => {
  const download = async (id: number, bearer: string) =>
    handleStatementDownload(
      api.services,
      new Request(`http://app/api/statements/${id}/pdf?lang=en`, {
        headers: { authorization: `Bearer ${bearer}` },
      }),
      String(id),
    );
  const errorOf = async (response: Response) =>
    ((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code;

  it('refuses a token issued before a password change and a deactivated user; serves a newer token', async () => {
    // Made in June 2026, so the statement's 15 October deadline keeps the 6 weeks.
    await importStatements(
      database.db,
      parseStatementFile(JSON.stringify(validStatement)),
      new Date('2026-06-20T10:00:00Z'),
    );
    const [row] = await database.db.select({ id: allocationStatements.id }).from(allocationStatements);
    const alice = fx.users.alice;
    const now = Math.floor(Date.now() / 1000);
    const before = (await signAccessToken('account', api.services.keys.account, alice, 300, now - 10)).token;
    const after = (await signAccessToken('account', api.services.keys.account, alice, 300, now)).token;
    // Valid before the change: the old token is served.
    expect((await download(row!.id, before)).status).toBe(200);
    // A password change (as endAllSessions records it): the older token is refused, a newer one served.
    await database.db
      .update(users)
      .set({ tokensValidAfter: new Date(now * 1000) })
      .where(eq(users.id, alice.id));
    const stale = await download(row!.id, before);
    expect(stale.status).toBe(401);
    expect(await errorOf(stale)).toBe('TOKEN_EXPIRED');
    const fresh = await download(row!.id, after);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('content-type')).toBe('application/pdf');
    // Deactivated: even the newer token is refused; reactivated, served again.
    await database.db.update(users).set({ isActive: false }).where(eq(users.id, alice.id));
    const inactive = await download(row!.id, after);
    expect(inactive.status).toBe(401);
    expect(await errorOf(inactive)).toBe('UNAUTHENTICATED');
    await database.db
      .update(users)
      .set({ isActive: true, tokensValidAfter: null })
      .where(eq(users.id, alice.id));
    expect((await download(row!.id, after)).status).toBe(200);
  });
});

describe('an slt issued before a password change', () => {
  it('can no longer be exchanged afterwards; the slt the change returns can', async () => {
    const email = 'slt-before-change@test.test';
    const signup = await call<{ createEmailPasswordUser: { token: string; slt: string } }>(
      api.account,
      Q.signup,
      { email, password: PASSWORD, language: 'en' },
    );
    expect(signup.errors).toBeUndefined();
    const { token, slt: before } = signup.data!.createEmailPasswordUser;
    const changed = await call<{ changePassword: { slt: string } }>(
      api.account,
      Q.changePassword,
      { cur: PASSWORD, pw: 'Changed#Tenant2027' },
      { token },
    );
    expect(changed.errors).toBeUndefined();
    const exchange = async (t: string) =>
      (await call<{ loginFromSlt: { ok: { token: string } | null } }>(api.tenant, Q.loginFromSlt, { t }))
        .data!.loginFromSlt.ok;
    expect(await exchange(before)).toBeNull();
    expect((await exchange(changed.data!.changePassword.slt))?.token).toBeTruthy();
  });
});

describe('null bytes get a coded validation error', () => {
  const VALUES = `query ($i: AlarmValuesInput!) { alarmValues(input: $i) { value } }`;
  const READOUT = `query ($t: Int!, $m: String!, $q: String!) {
    readoutMinMax(tenancyId: $t, meterNumber: $m, quantity: $q, fromDate: "2025-06-01", toDate: "2025-06-30") {
      meterNumber } }`;

  it('alarmValues.quantity and readoutMinMax.meterNumber: BAD_USER_INPUT with one, answered without', async () => {
    const [tenancy] = await database.db
      .select({ id: tenancies.id })
      .from(tenancies)
      .where(eq(tenancies.tenancyId, 'T-A-2025'));
    const token = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 300)).token;
    const values = (quantity: string) =>
      gql(
        api.tenant,
        VALUES,
        { i: { tenancyId: String(tenancy!.id), type: 'THRESHOLD', quantity, frequency: 'DAY' } },
        token,
      );
    const readout = (m: string) => gql(api.tenant, READOUT, { t: tenancy!.id, m, q: 'heat-energy' }, token);
    for (const r of [await values('heat-energy\u0000'), await readout('M-HEAT-A\u0000')]) {
      expect(errorCode(r)).toBe('BAD_USER_INPUT');
      expect(r.errors![0]!.message).toContain('null byte');
    }
    for (const r of [await values('heat-energy'), await readout('M-HEAT-A')])
      expect(r.errors).toBeUndefined();
  });

  it('import-statement: a refusal naming the null byte, not a stack trace; the same file without one parses', async () => {
    const path = join(tmpdir(), `statement-null-${process.pid}.json`);
    writeFileSync(path, JSON.stringify({ ...validStatement, tenancy: 'T-A-2025\u0000' }));
    const refused = await runStatementsCommand('import-statement', [path], async () => database.db).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(CliInputError);
    expect((refused as Error).message).toContain('null byte');
    expect(parseStatementFile(JSON.stringify(validStatement))).toHaveLength(1);
  });
});

// PGlite has no statement timeout (single-threaded WebAssembly without timer signals: src/server/db/client.ts,
// docs/decisions.md), so this runs on PostgreSQL only.
describe.skipIf(testEngine !== 'postgres')('a statement past DB_STATEMENT_TIMEOUT_MS on PostgreSQL', () => {
  it('is QUERY_TOO_COMPLEX (limit statementTimeout), not INTERNAL_SERVER_ERROR; the same request answers when quick', async () => {
    const [current] = await queryRows<{ name: string }>(database.db, sql`SELECT current_database() AS name`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${current!.name}`;
    const timed = await openDatabase({ url: url.toString(), max: 1, statementTimeoutMs: 200 });
    try {
      const timedApi = await createTestApi(timed);
      const token = (await signAccessToken('account', timedApi.services.keys.account, fx.users.bob, 300))
        .token;
      const me = () => gql(timedApi.account, '{ me { id } }', {}, token);
      // Another session holds the users table: the caller check waits past the 200 ms timeout.
      const blocked = await database.db.transaction(async (tx) => {
        await tx.execute(sql`LOCK TABLE users IN ACCESS EXCLUSIVE MODE`);
        return me();
      });
      expect(errorCode(blocked)).toBe('QUERY_TOO_COMPLEX');
      expect((blocked.errors![0]!.extensions as { limit?: string }).limit).toBe('statementTimeout');
      const quick = await me();
      expect(quick.errors).toBeUndefined();
    } finally {
      await timed.close();
    }
  });
});

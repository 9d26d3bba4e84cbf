/**
 * Throttles under a burst (issue 24, finding 3): 300 parallel attempts on each throttled path, and at most the
 * limit are checked. Login used to check the password first and count the failure after, so a burst of guesses
 * at one account was checked in full and the right password among them logged in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import type { BackendYoga } from '../../src/server/graphql/yoga.ts';
import { lookUpReport } from '../../src/server/reports/lookup.ts';
import { createTestApi, type GqlResult, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, PASSWORD, seedFixture } from './helpers/fixtures.ts';

let database: Database;
let api: TestApi;
let fx: Fixture;

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  api = await createTestApi(database, { TRUST_PROXY: '1' });
});
afterAll(async () => {
  await database?.close();
});

/** Posts an operation as a client at `address` (behind the one trusted proxy). */
async function post(yoga: BackendYoga, query: string, variables: Record<string, unknown>, address: string) {
  const response = await yoga.fetch(`http://yoga${yoga.graphqlEndpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GqlResult;
}

const throttled = (r: GqlResult) => r.errors?.[0]?.extensions?.code === 'TOO_MANY_ATTEMPTS';

/** Runs `n` attempts at once; returns how many were let through to the check, and the answers. */
async function burst(n: number, attempt: (i: number) => Promise<GqlResult>) {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => attempt(i)));
  return { checked: answers.filter((a) => !throttled(a)).length, answers };
}

const TOKEN_AUTH = `mutation ($email: String!, $password: String!) { tokenAuth(email: $email, password: $password) { token } }`;
const TENANT_LOGIN = `mutation ($email: String!, $password: String!) {
  loginWithEmailAndPassword(credentials: { email: $email, password: $password, targetResource: "tenant" }) { ok { token } } }`;

describe('300 parallel attempts', () => {
  it('account login, one account from many addresses: at most 10 passwords are checked', async () => {
    // The right password is the last of 300; every attempt comes from its own address.
    const { checked, answers } = await burst(300, (i) =>
      post(
        api.account,
        TOKEN_AUTH,
        { email: fx.users.alice.email, password: i === 299 ? PASSWORD : `wrong-${i}` },
        `10.1.${i >> 8}.${i & 255}`,
      ),
    );
    expect(checked).toBeLessThanOrEqual(10);
    expect(answers.filter((a) => a.data?.tokenAuth).length).toBeLessThanOrEqual(1);
  });

  it('tenant login, one account: at most 10 checked', async () => {
    const { checked } = await burst(300, (i) =>
      post(
        api.tenant,
        TENANT_LOGIN,
        { email: fx.users.bob.email, password: `wrong-${i}` },
        `10.2.${i >> 8}.${i & 255}`,
      ),
    );
    expect(checked).toBeLessThanOrEqual(10);
  });

  it('login from one address at many accounts: at most 100 checked', async () => {
    const { checked } = await burst(300, (i) =>
      post(api.account, TOKEN_AUTH, { email: `nobody-${i}@test.test`, password: 'x' }, '10.3.0.1'),
    );
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(100);
  });

  it('password reset requests and reset-link uses from one address: at most 20 each', async () => {
    const requests = await burst(300, (i) =>
      post(
        api.account,
        'mutation ($e: String!) { requestPasswordReset(email: $e) { ok } }',
        { e: `someone-${i}@test.test` },
        '10.4.0.1',
      ),
    );
    expect(requests.checked).toBeLessThanOrEqual(20);
    const uses = await burst(300, (i) =>
      post(
        api.account,
        'mutation ($e: String!, $t: String!) { passwordReset(email: $e, token: $t, newPassword: "Another#Pass2026") { ok } }',
        { e: fx.users.bob.email, t: `guess-${i}` },
        '10.4.0.2',
      ),
    );
    expect(uses.checked).toBeLessThanOrEqual(20);
  });

  it('activation codes from one address: at most 30 checked', async () => {
    const { checked } = await burst(300, (i) =>
      post(
        api.account,
        'query ($c: String!) { validateActivationCode(activationCode: $c) { ok } }',
        { c: `GUESS${String(i).padStart(7, 'A')}` },
        '10.5.0.1',
      ),
    );
    expect(checked).toBeLessThanOrEqual(30);
  });

  it('signups from one address: at most 10', async () => {
    const { checked } = await burst(300, (i) =>
      post(
        api.account,
        'mutation ($e: String!) { createEmailPasswordUser(email: $e, password: "Signup#Pass2026") { token } }',
        { e: `new-${i}@test.test` },
        '10.6.0.1',
      ),
    );
    expect(checked).toBeLessThanOrEqual(10);
  });

  it('report lookups from one address: at most the 60 points of the window reach the codes', async () => {
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        lookUpReport(database.db, `code-${i}`.padEnd(43, 'x'), '10.7.0.1'),
      ),
    );
    expect(answers.filter((a) => a.status !== 'throttled').length).toBeLessThanOrEqual(60);
  });
});

/**
 * Throttles under a burst (issue 24, finding 3): 300 parallel attempts on each throttled path, and at most the
 * limit are checked. Login used to check the password first and count the failure after, so a burst of guesses
 * at one account was checked in full and the right password among them logged in.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { invitations, mailOutbox, tenancyMembers } from '../../src/server/db/schema.ts';
import { clientAddressFrom } from '../../src/server/graphql/context.ts';
import type { BackendYoga } from '../../src/server/graphql/yoga.ts';
import { lookUpReport } from '../../src/server/reports/lookup.ts';
import { Q } from './helpers/accountsApi.ts';
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
async function post<T = Record<string, unknown>>(
  yoga: BackendYoga,
  query: string,
  variables: Record<string, unknown>,
  address: string,
  token?: string,
) {
  const response = await yoga.fetch(`http://yoga${yoga.graphqlEndpoint}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': address,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GqlResult<T>;
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

describe('forwarded addresses (TRUST_PROXY)', () => {
  it('the client address is the hop the trusted proxies appended, whatever the client wrote before it', () => {
    // One proxy: it appended the last entry.
    expect(clientAddressFrom(1, '6.6.6.6, 203.0.113.9', '10.0.0.2')).toBe('203.0.113.9');
    expect(clientAddressFrom(1, '203.0.113.9', '10.0.0.2')).toBe('203.0.113.9');
    // Two proxies (a CDN, then nginx): the CDN appended the client, nginx appended the CDN.
    expect(clientAddressFrom(2, '6.6.6.6, 203.0.113.9, 198.51.100.7', '10.0.0.2')).toBe('203.0.113.9');
    // No proxy trusted, or a chain shorter than the proxies: the socket's address.
    expect(clientAddressFrom(0, '203.0.113.9', '10.0.0.2')).toBe('10.0.0.2');
    expect(clientAddressFrom(2, '203.0.113.9', '10.0.0.2')).toBe('10.0.0.2');
  });

  it('signups with a rotated first X-Forwarded-For entry still count against the one real address', async () => {
    const { checked } = await burst(15, (i) =>
      post(
        api.account,
        'mutation ($e: String!) { createEmailPasswordUser(email: $e, password: "Signup#Pass2026") { token } }',
        { e: `rotated-${i}@test.test` },
        `192.0.2.${i + 1}, 10.8.0.1`,
      ),
    );
    expect(checked).toBe(10);
  });
});

describe('mail a user sends to an address they choose (issue 24 medium: invitations were not throttled)', () => {
  const tokens: Record<'alice' | 'bob' | 'previous', string> = { alice: '', bob: '', previous: '' };
  let tenancyB = 0;
  const invite = (who: keyof typeof tokens, tenancyId: number, email: string, address: string) =>
    post<{ inviteToTenancy: { id: string } }>(
      api.account,
      Q.invite,
      { id: String(tenancyId), email },
      address,
      tokens[who],
    );
  const mailsTo = async (to: string) =>
    (await database.db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.to, to))).length;

  beforeAll(async () => {
    for (const name of ['alice', 'bob', 'previous'] as const)
      tokens[name] = (await signAccessToken('account', api.services.keys.account, fx.users[name], 300)).token;
    // Bob and `previous` administer tenancy B: two admins besides Alice (admin of A).
    const [b] = await database.db
      .select({ tenancyId: tenancyMembers.tenancyId })
      .from(tenancyMembers)
      .where(eq(tenancyMembers.userId, fx.users.bob.id));
    tenancyB = b!.tenancyId;
    await database.db
      .update(tenancyMembers)
      .set({ isAdmin: true })
      .where(and(eq(tenancyMembers.tenancyId, tenancyB), eq(tenancyMembers.userId, fx.users.bob.id)));
    await database.db
      .insert(tenancyMembers)
      .values({ tenancyId: tenancyB, userId: fx.users.previous.id, isAdmin: true });
  });

  it('email-change links: at most 3 to one new address', async () => {
    // `previous`: the logins above used up the failures of Alice's and Bob's accounts.
    const { checked } = await burst(6, () =>
      post(
        api.account,
        Q.requestEmailChange,
        { pw: PASSWORD, email: 'new.previous@test.test' },
        '10.9.0.1',
        tokens.previous,
      ),
    );
    expect(checked).toBe(3);
    expect(await mailsTo('new.previous@test.test')).toBe(3);
  });

  it('one admin: at most 20 invitations an hour, whatever the addresses; another admin is not held back', async () => {
    const [tenancyA] = await database.db
      .select({ tenancyId: tenancyMembers.tenancyId })
      .from(tenancyMembers)
      .where(eq(tenancyMembers.userId, fx.users.alice.id));
    const { checked } = await burst(300, (i) =>
      invite('alice', tenancyA!.tenancyId, `invitee-${i}@test.test`, '10.9.0.2'),
    );
    expect(checked).toBe(20);
    const sent = await database.db
      .select({ id: invitations.id })
      .from(invitations)
      .where(eq(invitations.invitedByUserId, fx.users.alice.id));
    expect(sent).toHaveLength(20);
    const other = await invite('previous', tenancyB, 'invitee-0@test.test', '10.9.0.2');
    expect(other.errors).toBeUndefined();
  });

  it('one address: at most 3 invitations and resends, from any admin; other addresses still get theirs', async () => {
    const invited = await invite('bob', tenancyB, 'target@test.test', '10.9.0.3');
    expect(invited.errors).toBeUndefined();
    const { checked } = await burst(300, () =>
      post(api.account, Q.resend, { id: invited.data!.inviteToTenancy.id }, '10.9.0.3', tokens.bob),
    );
    expect(checked).toBe(2);
    expect(await mailsTo('target@test.test')).toBe(3);
    // The same address from another admin is held back too; another address from that admin is not.
    const again = await post(
      api.account,
      Q.resend,
      { id: invited.data!.inviteToTenancy.id },
      '10.9.0.4',
      tokens.previous,
    );
    expect(throttled(again)).toBe(true);
    const fresh = await invite('previous', tenancyB, 'fresh@test.test', '10.9.0.4');
    expect(fresh.errors).toBeUndefined();
    expect(await mailsTo('fresh@test.test')).toBe(1);
  });
});

/**
 * The low findings of issue 24, each from both sides of its boundary: GraphQL posts that are not JSON (a form on
 * any web site could send them without a CORS preflight) are refused before anything runs.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { mailOutbox } from '../../src/server/db/schema.ts';
import type { BackendYoga } from '../../src/server/graphql/yoga.ts';
import { createTestApi, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';

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

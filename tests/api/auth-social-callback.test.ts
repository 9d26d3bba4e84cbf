/** Apple's form_post to /login/social: taken before Astro and turned into the fragment the page reads. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { createAppServer } from '../../src/server/http.ts';
import { createTestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';

let database: Database;
let server: Server;
let base = '';

beforeAll(async () => {
  database = await freshDatabase();
  const api = await createTestApi(database);
  server = createAppServer({ services: api.services });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await database?.close();
});

const post = (body: string, type = 'application/x-www-form-urlencoded') =>
  fetch(`${base}/login/social`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': type, origin: 'https://appleid.apple.com' },
    body,
  });

describe('POST /login/social (form_post)', () => {
  it('answers 303 to the same path with only id_token, state and error in the fragment', async () => {
    const res = await post('state=S1&code=abc&id_token=eyJ.x.y&user=%7B%22name%22%3A1%7D');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login/social#id_token=eyJ.x.y&state=S1');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const denied = await post('error=user_cancelled_authorize&state=S2');
    expect(denied.headers.get('location')).toBe('/login/social#state=S2&error=user_cancelled_authorize');
  });
  it('turns an oversized or non-form body into an error answer', async () => {
    const big = await post(`id_token=${'a'.repeat(40_000)}&state=S`);
    expect(big.status).toBe(303);
    expect(big.headers.get('location')).toBe('/login/social#error=invalid_request');
    const json = await post('{"id_token":"x"}', 'application/json');
    expect(json.headers.get('location')).toBe('/login/social#error=invalid_request');
  });
});

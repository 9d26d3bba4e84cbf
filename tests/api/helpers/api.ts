/** Builds both backends in-process over a test database, with in-memory keys, and calls them with yoga.fetch. */
import { Writable } from 'node:stream';
import pino from 'pino';
import { createAccountYoga } from '../../../src/server/account/yoga.ts';
import { createAdminYoga } from '../../../src/server/admin/yoga.ts';
import { generateKeyRing } from '../../../src/server/auth/keys.ts';
import { parseServerConfig } from '../../../src/server/config.ts';
import type { Database } from '../../../src/server/db/client.ts';
import type { BackendYoga } from '../../../src/server/graphql/yoga.ts';
import type { ApiServices } from '../../../src/server/services.ts';
import { createTenantYoga } from '../../../src/server/tenant/yoga.ts';

/** The two backends, their services, and the log lines they wrote. */
export interface TestApi {
  services: ApiServices;
  account: BackendYoga;
  tenant: BackendYoga;
  admin: BackendYoga;
  logs: Array<Record<string, unknown>>;
}

/** Creates both backends over the database; log lines are captured, not printed. */
export async function createTestApi(database: Database, env: Record<string, string> = {}): Promise<TestApi> {
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const services: ApiServices = {
    config: parseServerConfig({ DATA_DIR: '/nonexistent-test-data-dir', LOG_LEVEL: 'info', ...env }),
    database,
    logger: pino({ level: 'info' }, sink),
    keys: await generateKeyRing(),
  };
  return {
    services,
    account: createAccountYoga(services),
    tenant: createTenantYoga(services),
    admin: createAdminYoga(services),
    logs,
  };
}

/** A GraphQL response body. */
export interface GqlResult<T = Record<string, unknown>> {
  data?: T | null;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

/** Posts a GraphQL operation to a backend in-process; returns the body and the response. */
export async function gql<T = Record<string, unknown>>(
  yoga: BackendYoga,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string | null,
): Promise<GqlResult<T> & { response: Response }> {
  const path = yoga.graphqlEndpoint;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await yoga.fetch(`http://yoga${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as GqlResult<T>;
  return { ...body, response };
}

/** The first error's code, or undefined. */
export const errorCode = (r: Pick<GqlResult<unknown>, 'errors'>) => r.errors?.[0]?.extensions?.code;

/**
 * The console's role matrix in the API tests: one database per file with the admin fixture, a signed token per
 * caller (organisation admin, manager of P1 = "this property", manager of P2, another organisation's admin, a
 * tenant with a real tenant-app token, anonymous), and a call that answers each caller's error code.
 */
import { issueTokens } from '../../../src/server/auth/login.ts';
import type { Database } from '../../../src/server/db/client.ts';
import { call, codeOf, Q } from './accountsApi.ts';
import { PASSWORD } from './accountsFixture.ts';
import { type AdminFixture, setUpAdminApi } from './adminFixture.ts';
import type { GqlResult, TestApi } from './api.ts';

type Who = 'orgAdmin' | 'managerHere' | 'managerElsewhere' | 'otherOrgAdmin' | 'tenant' | 'anonymous';

/** What the tenant and an anonymous caller get from every console call. */
export const UNAUTH = { tenant: 'UNAUTHENTICATED', anonymous: 'UNAUTHENTICATED' } as const;

/** The answers to a call of one P1 object that only the organisation admin and P1's manager may make. */
export const P1_ONLY = {
  orgAdmin: undefined,
  managerHere: undefined,
  managerElsewhere: 'FORBIDDEN',
  otherOrgAdmin: 'FORBIDDEN',
  ...UNAUTH,
};

export interface AdminMatrix {
  database: Database;
  api: TestApi;
  fx: AdminFixture;
  tokens: Record<Who, string | null>;
  /** One call as a caller. */
  as: (
    who: Who,
    query: string,
    variables?: Record<string, unknown>,
  ) => Promise<GqlResult<Record<string, unknown>>>;
  /** Each caller's error code (undefined: answered). */
  matrix: (query: string, variables: () => Record<string, unknown>) => Promise<Partial<Record<Who, unknown>>>;
}

export async function setUpAdminMatrix(): Promise<AdminMatrix> {
  const { database, fx, api } = await setUpAdminApi();
  const sign = async (u: { id: number; email: string }) =>
    (await issueTokens(database.db, api.services.config, 'admin', api.services.keys.admin, u)).token;
  const tenant = await call<{ tokenAuth: { token: string } }>(api.account, Q.tokenAuth, {
    email: fx.tenant.email,
    password: PASSWORD,
  });
  const tokens: Record<Who, string | null> = {
    orgAdmin: await sign(fx.ops.admin1),
    managerHere: await sign(fx.ops.manager1),
    managerElsewhere: await sign(fx.ops.manager2),
    otherOrgAdmin: await sign(fx.ops.admin2),
    tenant: tenant.data!.tokenAuth.token,
    anonymous: null,
  };
  const as = (who: Who, query: string, variables: Record<string, unknown> = {}) =>
    call<Record<string, unknown>>(api.admin, query, variables, { token: tokens[who] });
  const matrix = async (query: string, variables: () => Record<string, unknown>) => {
    const out: Partial<Record<Who, unknown>> = {};
    for (const who of Object.keys(tokens) as Who[]) out[who] = codeOf(await as(who, query, variables()));
    return out;
  };
  return { database, api, fx, tokens, as, matrix };
}

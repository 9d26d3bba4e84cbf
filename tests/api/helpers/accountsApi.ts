/** GraphQL documents and a caller with a client address, for the account tests. */
import type { BackendYoga } from '../../../src/server/graphql/yoga.ts';
import type { GqlResult } from './api.ts';

/** Posts an operation as a given client address (the tests run with TRUST_PROXY=1). */
export async function call<T = Record<string, unknown>>(
  yoga: BackendYoga,
  query: string,
  variables: Record<string, unknown> = {},
  opts: { token?: string | null; ip?: string } = {},
): Promise<GqlResult<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  headers['x-forwarded-for'] = opts.ip ?? '192.0.2.1';
  const response = await yoga.fetch(`http://yoga${yoga.graphqlEndpoint}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GqlResult<T>;
}

const GRAPH = `{ graphType: HOURLY_VALUES, resolution: DAY, periodBegin: "2025-01-01T00:00", periodEnd: "2025-01-03T00:00", objects: [{ kind: UNIT, id: $unit }], quantities: ["heat-energy"] }`;

export const Q = {
  tokenAuth: `mutation ($email: String!, $password: String!) { tokenAuth(email: $email, password: $password) { token refreshToken } }`,
  tenantLogin: `mutation ($email: String!, $password: String!) { loginWithEmailAndPassword(credentials: { email: $email, password: $password, targetResource: "tenant" }) { ok { token refreshToken } } }`,
  accountRefresh: `mutation ($t: String!) { refreshToken(refreshToken: $t) { token refreshToken } }`,
  tenantRefresh: `mutation ($t: String!) { refreshToken(refreshToken: $t) { ok { token refreshToken } } }`,
  accountRevoke: `mutation ($t: String!) { revokeToken(refreshToken: $t) { revoked } }`,
  tenantRevoke: `mutation ($t: String!) { revokeToken(refreshToken: $t) { revoked } }`,
  accountMe: `{ me { id email language emailNotifications } }`,
  tenancies: `{ allTenanciesForCurrentUser { id isAdmin } }`,
  tenantMe: `{ me { id email } }`,
  tenantUnits: `{ tenantUnits { unit { id } } }`,
  /** tenantGraph alone checks the caller in its own statement (callerCheckPlugin); these cover its three shapes. */
  tenantGraph: `query ($unit: ID!) { tenantGraph(graph: ${GRAPH}) { timestamps } }`,
  tenantGraphTwice: `query ($unit: ID!) { a: tenantGraph(graph: ${GRAPH}) { timestamps } b: tenantGraph(graph: ${GRAPH}) { timestamps } }`,
  tenantGraphAndMe: `query ($unit: ID!) { me { id } tenantGraph(graph: ${GRAPH}) { timestamps } }`,
  signup: `mutation ($email: String!, $password: String!, $language: String) { createEmailPasswordUser(email: $email, password: $password, language: $language) { token refreshToken refreshExpiresIn slt user { id email language } } }`,
  validate: `query ($code: String!) { validateActivationCode(activationCode: $code) { ok text } }`,
  addTenancy: `mutation ($code: String!) { addTenancy(activationCode: $code) { ok } }`,
  loginFromSlt: `mutation ($t: String!) { loginFromSlt(token: $t) { ok { token refreshToken } } }`,
  requestReset: `mutation ($email: String!) { requestPasswordReset(email: $email) { ok } }`,
  reset: `mutation ($email: String!, $token: String!, $pw: String!) { passwordReset(email: $email, token: $token, newPassword: $pw) { ok } }`,
  changePassword: `mutation ($cur: String!, $pw: String!) { changePassword(currentPassword: $cur, newPassword: $pw) { token refreshToken slt } }`,
  requestEmailChange: `mutation ($pw: String!, $email: String!) { requestEmailChange(password: $pw, newEmail: $email) { ok } }`,
  confirmEmailChange: `mutation ($t: String!) { confirmEmailChange(token: $t) { ok } }`,
  updateProfile: `mutation ($language: String, $n: Boolean) { updateProfile(language: $language, emailNotifications: $n) { language emailNotifications } }`,
  leave: `mutation ($id: ID!) { leaveTenancy(tenancyId: $id) { ok } }`,
  deleteAccount: `mutation ($pw: String, $c: String!) { deleteAccount(password: $pw, confirmation: $c) { ok } }`,
  settings: `query ($id: ID!) { tenancySettings(tenancyId: $id) { id tenancyId address zipcode city apartment start end propertyName contact { phone email } isAdmin members { userId email isAdmin isMe } pendingInvitations { id email } } }`,
  invite: `mutation ($id: ID!, $email: String!) { inviteToTenancy(tenancyId: $id, email: $email) { id email } }`,
  resend: `mutation ($id: ID!) { resendInvitation(invitationId: $id) { id email lastSentAt } }`,
  setAdmin: `mutation ($id: ID!, $u: ID!, $a: Boolean!) { setTenancyAdmin(tenancyId: $id, userId: $u, isAdmin: $a) { userId isAdmin isMe } }`,
  remove: `mutation ($id: ID!, $u: ID!) { removeTenancyUser(tenancyId: $id, userId: $u) { ok } }`,
  impersonate: `mutation ($t: String!) { impersonate(token: $t) { token refreshToken expiresAt email slt } }`,
  socialAuth: `mutation ($t: String!, $p: String!, $n: String) { socialAuth(accessToken: $t, provider: $p, nonce: $n) { token refreshToken slt social { provider user { email } } } }`,
  socialProviders: `{ socialProviders }`,
} as const;

/** The first error's code. */
export const codeOf = (r: GqlResult<unknown>) => r.errors?.[0]?.extensions?.code;

// @ts-check
/**
 * The user-facing half of scripts/deploy-local.sh: against a deployment (the proxy's origin), a new user signs up,
 * adds a tenancy with an activation code, logs in to the tenant backend and gets a heat graph with values. The
 * token is then used on each app process directly, so both must share the signing keys. Exits 1 on any failure.
 *   node scripts/deploy-smoke.mjs <proxy origin> <activation code> <period begin> <period end> [app origin…]
 */
const [proxy, code, periodBegin, periodEnd, ...apps] = process.argv.slice(2);
if (!proxy || !code || !periodBegin || !periodEnd) {
  console.error('usage: deploy-smoke.mjs <proxy origin> <activation code> <period begin> <period end> [app…]');
  process.exit(2);
}

/** @param {string} origin @param {string} path @param {string} query @param {object} variables @param {string} [token] */
async function gql(origin, path, query, variables = {}, token) {
  /** @type {Record<string, string>} */
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${origin}${path}`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  const body = /** @type {{ data?: any, errors?: Array<{ message: string }> }} */ (await res.json());
  if (!res.ok || body.errors) throw new Error(`${path} ${res.status}: ${JSON.stringify(body.errors ?? body)}`);
  return body.data;
}
const ACCOUNT = '/api/account/graphql';
const TENANT = '/api/tenant/graphql';

const email = `smoke-${Date.now()}@example.test`;
const password = 'Fjord-Lantern-42';
const signup = await gql(
  proxy,
  ACCOUNT,
  'mutation ($e: String!, $p: String!) { createEmailPasswordUser(email: $e, password: $p) { token } }',
  { e: email, p: password },
);
await gql(proxy, ACCOUNT, 'mutation ($c: String!) { addTenancy(activationCode: $c) { ok } }', { c: code }, signup.createEmailPasswordUser.token);

const started = performance.now();
const login = await gql(
  proxy,
  TENANT,
  'mutation ($e: String!, $p: String!) { loginWithEmailAndPassword(credentials: { email: $e, password: $p, targetResource: "tenant" }) { ok { token } } }',
  { e: email, p: password },
);
const token = login.loginWithEmailAndPassword.ok?.token;
if (!token) throw new Error(`login refused: ${JSON.stringify(login)}`);
console.log(`login as ${email}: ${(performance.now() - started).toFixed(0)} ms`);

const units = await gql(proxy, TENANT, '{ tenantUnits { unit { id } } }', {}, token);
const unit = units.tenantUnits[0]?.unit.id;
if (!unit) throw new Error('the tenancy has no unit');
const graphQuery =
  'query ($g: TenantGraphInput!) { tenantGraph(graph: $g) { timestamps graphs { consumption { values } } } }';
const graph = {
  graphType: 'HOURLY_VALUES',
  resolution: 'DAY',
  periodBegin,
  periodEnd,
  objects: [{ kind: 'UNIT', id: unit }],
  quantities: ['heat-energy'],
};
const graphStarted = performance.now();
const result = await gql(proxy, TENANT, graphQuery, { g: graph }, token);
const values = result.tenantGraph.graphs[0]?.consumption[0]?.values ?? [];
const total = values.reduce((/** @type {number} */ s, /** @type {number | null} */ v) => s + (v ?? 0), 0);
console.log(
  `heat graph ${periodBegin}..${periodEnd} by day: ${values.map((/** @type {number | null} */ v) => v ?? '–').join(', ')} kWh (${(performance.now() - graphStarted).toFixed(0)} ms)`,
);
if (!(total > 0)) throw new Error('the graph has no consumption');

// The same token on each app process: tokens signed by one are accepted by the other (shared keys).
for (const app of apps) {
  const again = await gql(app, TENANT, graphQuery, { g: graph }, token);
  const same = JSON.stringify(again.tenantGraph) === JSON.stringify(result.tenantGraph);
  if (!same) throw new Error(`${app} answered a different graph`);
  console.log(`the token and graph also on ${app}: same answer`);
}
console.log('deploy smoke: OK');

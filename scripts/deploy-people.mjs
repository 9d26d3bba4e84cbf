// @ts-check
/**
 * A step of scripts/deploy-local.sh: ingestion on one app process gives way to people served by another
 * (src/server/ingest/people.ts, shared through PostgreSQL's NOTIFY). A gateway posts a batch straight to app2 and
 * app2's `ingest_yield_seconds_total` is read from its metrics port: unchanged while nobody has asked anything
 * for longer than the window, grown when a tenant's request reached app1 just before.
 *   node scripts/deploy-people.mjs <app1 origin> <app2 origin> <app2 metrics origin> <api key> <meter>
 */
const [app1, app2, metrics2, key, meter] = process.argv.slice(2);
if (!app1 || !app2 || !metrics2 || !key || !meter) {
  console.error('usage: deploy-people.mjs <app1> <app2> <app2 metrics> <api key> <meter>');
  process.exit(2);
}
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function yielded() {
  const text = await (await fetch(`${metrics2}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('ingest_yield_seconds_total'));
  return Number(line?.split(' ')[1] ?? 0);
}

/** Posts 24 hourly readings of `meter` from `day` straight to app2; they must all be accepted. */
async function postToApp2(/** @type {string} */ day) {
  const start = Date.parse(`${day}T00:00:00Z`);
  const rows = Array.from({ length: 24 }, (_, h) => ({
    meter,
    timestamp: new Date(start + h * 3600e3).toISOString(),
    // The series deploy-local.sh posted before, continued: 0.5 kWh an hour.
    value: 1040.5 + (0.5 * (start + h * 3600e3 - Date.parse('2025-10-04T05:00:00Z'))) / 3600e3,
  }));
  const res = await fetch(`${app2}/api/ingest/v1/readings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(rows),
  });
  const answer = /** @type {{ totals?: { accepted?: number } }} */ (await res.json());
  if (res.status !== 200 || answer.totals?.accepted !== rows.length) {
    throw new Error(`app2 answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

// Nobody has asked anything for longer than the window (2 s): app2 does not pause.
await sleep(2_500);
const before = await yielded();
await postToApp2('2026-01-02');
const idle = await yielded();
if (idle !== before) throw new Error(`app2 paused with nobody using the app (${before} → ${idle} s)`);
console.log(`nobody using the app: app2 ingested without pausing (ingest_yield_seconds_total ${idle})`);

// A tenant's request reaches app1 (any GraphQL request counts); app2 hears of it and pauses after its transaction.
await fetch(`${app1}/api/tenant/graphql`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query: '{ __typename }' }),
});
await sleep(100);
await postToApp2('2026-01-03');
let after = await yielded();
for (let i = 0; i < 20 && after === idle; i++) {
  await sleep(100);
  after = await yielded();
}
if (!(after > idle)) throw new Error(`app2 did not give way to a person served by app1 (${idle} → ${after} s)`);
console.log(`a tenant on app1: app2 gave way after its transaction (ingest_yield_seconds_total ${idle} → ${after})`);

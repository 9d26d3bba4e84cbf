// @ts-check
/**
 * The monitoring half of scripts/deploy-local.sh, against a real Prometheus that scrapes the deployment's processes
 * with deploy/prometheus/alerts.yml. Waits (30 s at most) and exits 1 when the wait ends without it:
 *   node scripts/deploy-prometheus.mjs <prometheus origin> up <targets>
 *     <targets> targets scraped and up, every rule loaded and evaluated without error, and the app processes'
 *     request metrics and the worker's process metrics in Prometheus;
 *   node scripts/deploy-prometheus.mjs <prometheus origin> alert <name>
 *     the alert <name> pending or firing (after a process was stopped).
 */
const [origin, what, arg] = process.argv.slice(2);
if (!origin || !['up', 'alert'].includes(what ?? '') || !arg) {
  console.error('usage: deploy-prometheus.mjs <prometheus origin> up <targets> | alert <name>');
  process.exit(2);
}

/** @param {string} path */
async function api(path) {
  const res = await fetch(`${origin}/api/v1/${path}`);
  const body = /** @type {{ status: string, data: any }} */ (await res.json());
  if (body.status !== 'success') throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}

/** @returns {Promise<string | null>} null when the condition holds, else what is still missing */
async function check() {
  if (what === 'alert') {
    const { alerts } = await api('alerts');
    const alert = alerts.find((/** @type {any} */ a) => a.labels.alertname === arg);
    return alert ? null : `no ${arg} alert yet (${alerts.map((/** @type {any} */ a) => a.labels.alertname).join(', ') || 'none'})`;
  }
  const { activeTargets } = await api('targets');
  const down = activeTargets.filter((/** @type {any} */ t) => t.health !== 'up');
  if (activeTargets.length !== Number(arg) || down.length > 0)
    return `targets: ${activeTargets.map((/** @type {any} */ t) => `${t.labels.job} ${t.labels.instance} ${t.health} ${t.lastError}`).join('; ')}`;
  const { groups } = await api('rules');
  const rules = groups.flatMap((/** @type {any} */ g) => g.rules);
  const bad = rules.filter((/** @type {any} */ r) => r.health !== 'ok');
  if (rules.length === 0 || bad.length > 0)
    return `rules: ${rules.length} loaded, not ok: ${bad.map((/** @type {any} */ r) => `${r.name} ${r.health} ${r.lastError ?? ''}`).join('; ')}`;
  for (const query of [
    'http_request_duration_seconds_count{job="tenant-app",route="/api/health/ready"}',
    'process_cpu_user_seconds_total{job="tenant-worker"}',
  ]) {
    const { result } = await api(`query?query=${encodeURIComponent(query)}`);
    if (result.length === 0) return `no ${query} in Prometheus yet`;
  }
  return `ok: ${activeTargets.length} targets up, ${rules.length} rules evaluated`;
}

const until = Date.now() + 30_000;
let last = '';
for (;;) {
  try {
    last = (await check()) ?? 'ok';
  } catch (err) {
    last = String(err);
  }
  if (last.startsWith('ok')) break;
  if (Date.now() > until) {
    console.error(`Prometheus at ${origin}: ${last}`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}
console.log(what === 'alert' ? `  ${arg}: pending in Prometheus` : `  Prometheus: ${last.slice(4)}`);

#!/usr/bin/env bash
# The deploy kit's steps without containers: what compose.yaml does, on this machine, from a production build.
# Run by .ci/run; needs PostgreSQL (an admin URL), nginx and Node 24.
#   1. npm run build in this checkout (the web app and the server entries compiled ahead of time);
#   2. a fresh folder with exactly what the image holds (the Dockerfile's COPY list), and npm ci --omit=dev there;
#   3. a new PostgreSQL database: the migrate step, then 2 app processes and 1 worker on it, nginx in front
#      (deploy/nginx/app.conf.template);
#   4. readiness of each app, health through the proxy, an operator's import with the CLI, then one login and
#      one graph through the proxy (scripts/deploy-smoke.mjs), the token accepted by both apps;
#   5. Prometheus (Debian's prometheus package) scraping the 3 processes' metrics ports with
#      deploy/prometheus/alerts.yml: every target up and every rule evaluated, then the worker stopped and
#      TenantWorkerDown raised (scripts/deploy-prometheus.mjs).
# Everything it starts is stopped and the database dropped at the end, whatever happens.
# Settings: DEPLOY_ADMIN_DATABASE_URL (default postgres://root:root@127.0.0.1:5432/postgres), DEPLOY_BASE_PORT
# (default 5310: proxy; +1, +2 the apps; +3, +4, +5 their and the worker's metrics ports; +6 Prometheus), DEPLOY_SKIP_BUILD=1 (reuse dist/), NODE_BIN (a Node 24 binary).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
admin_url=${DEPLOY_ADMIN_DATABASE_URL:-postgres://root:root@127.0.0.1:5432/postgres}
base_port=${DEPLOY_BASE_PORT:-5310}
proxy_port=$base_port
app1_port=$((base_port + 1))
app2_port=$((base_port + 2))
metrics_ports=($((base_port + 3)) $((base_port + 4)) $((base_port + 5)))
prometheus_port=$((base_port + 6))
started=$(date +%s)
step() { echo "== $(($(date +%s) - started)) s: $*"; }

# Node 24: the one on PATH if new enough, else the project's pinned one (a devDependency of this checkout).
node_bin=${NODE_BIN:-node}
if ! "$node_bin" -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 24 ? 0 : 1)' 2>/dev/null; then
  node_bin="$repo/node_modules/node/bin/node"
fi
"$node_bin" -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 24 ? 0 : 1)' || {
  echo "Node 24 is needed (set NODE_BIN)" >&2
  exit 1
}
command -v nginx >/dev/null || { echo "nginx is needed (apt-get install nginx-light)" >&2; exit 1; }
command -v prometheus >/dev/null || { echo "Prometheus is needed (apt-get install prometheus)" >&2; exit 1; }

work=$(mktemp -d /tmp/deploy-local.XXXXXX)
db_name="deploy_smoke_$(date +%s)_$$"
pids=()
cleanup() {
  status=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  if [ -f "$work/nginx/nginx.pid" ]; then kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true; fi
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  psql -q "$admin_url" -c "DROP DATABASE IF EXISTS $db_name WITH (FORCE)" >/dev/null 2>&1 || true
  if [ "$status" -ne 0 ]; then
    echo "deploy-local FAILED (exit $status); logs:" >&2
    for log in "$work"/*.log "$work"/nginx/error.log; do
      [ -f "$log" ] && { echo "--- $log" >&2; tail -n 30 "$log" >&2; }
    done
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT

if [ "${DEPLOY_SKIP_BUILD:-0}" != 1 ]; then
  step "production build (npm run build)"
  NODE_ENV=production npm run build --silent >"$work/build.log" 2>&1
fi

step "a fresh folder with the image's files, npm ci --omit=dev"
app="$work/app"
mkdir -p "$app/src/server/db"
cp package.json package-lock.json "$app/"
cp -r dist locales "$app/"
cp -r src/server/db/migrations "$app/src/server/db/"
mkdir -p "$app/src/server/ingest"
cp src/server/db/pglite-worker.mjs "$app/src/server/db/"
cp src/server/ingest/csv-worker.mjs "$app/src/server/ingest/"
(cd "$app" && npm ci --omit=dev --no-audit --no-fund --prefer-offline >"$work/npm-ci.log" 2>&1)
# Production has neither the dev tools nor a TypeScript loader on its path to start.
for dev in vitest @biomejs/biome drizzle-kit node; do
  if [ -e "$app/node_modules/$dev" ]; then echo "dev package $dev was installed" >&2; exit 1; fi
done

step "PostgreSQL database $db_name; shared keys; the migrate step"
psql -q "$admin_url" -c "CREATE DATABASE $db_name" >/dev/null
db_url=$(DB="$db_name" ADMIN="$admin_url" "$node_bin" -e 'const u = new URL(process.env.ADMIN); u.pathname = "/" + process.env.DB; console.log(u.toString())')
export DATABASE_URL=$db_url NODE_ENV=production HOST=127.0.0.1 TRUST_PROXY=1 LOG_LEVEL=info
ACCOUNT_JWT_PRIVATE_KEY=$(openssl genpkey -algorithm ed25519)
TENANT_JWT_PRIVATE_KEY=$(openssl genpkey -algorithm ed25519)
ADMIN_JWT_PRIVATE_KEY=$(openssl genpkey -algorithm ed25519)
export ACCOUNT_JWT_PRIVATE_KEY TENANT_JWT_PRIVATE_KEY ADMIN_JWT_PRIVATE_KEY
export APP_URL="http://127.0.0.1:$proxy_port"
(cd "$app" && "$node_bin" dist/server-node/migrate.mjs) | tee "$work/migrate.log"

step "2 app processes, 1 worker"
for i in 1 2; do
  port_var="app${i}_port"
  (cd "$app" && exec env PORT="${!port_var}" METRICS_PORT="${metrics_ports[$((i - 1))]}" DATA_DIR="$work/data$i" \
    WORKER=off "$node_bin" dist/server-node/start.mjs) >"$work/app$i.log" 2>&1 &
  pids+=($!)
done
(cd "$app" && exec env METRICS_PORT="${metrics_ports[2]}" DATA_DIR="$work/data-worker" "$node_bin" \
  dist/server-node/worker.mjs) >"$work/worker.log" 2>&1 &
worker_pid=$!
pids+=($worker_pid)

step "nginx on $proxy_port in front of both"
mkdir -p "$work/nginx/tmp"
chmod -R 0777 "$work/nginx/tmp"
# nginx's workers run as another user: they reach the temporary folders (a body over 16 kB goes there) through
# the work folder, which mktemp made private.
chmod 0711 "$work"
sed -e "s/\${APP_UPSTREAM_1}/127.0.0.1:$app1_port/" -e "s/\${APP_UPSTREAM_2}/127.0.0.1:$app2_port/" \
  -e "s/\${PROXY_LISTEN}/127.0.0.1:$proxy_port/" deploy/nginx/app.conf.template >"$work/nginx/app.conf"
cat >"$work/nginx/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 256; }
http {
  access_log $work/nginx/access.log;
  client_body_temp_path $work/nginx/tmp/body;
  proxy_temp_path $work/nginx/tmp/proxy;
  fastcgi_temp_path $work/nginx/tmp/fastcgi;
  uwsgi_temp_path $work/nginx/tmp/uwsgi;
  scgi_temp_path $work/nginx/tmp/scgi;
  include $work/nginx/app.conf;
}
NGINX
nginx -t -q -c "$work/nginx/nginx.conf" -p "$work/nginx/"
nginx -c "$work/nginx/nginx.conf" -p "$work/nginx/"

step "readiness of each app (/api/health/ready)"
for port in "$app1_port" "$app2_port"; do
  for _ in $(seq 1 600); do
    curl -sf "http://127.0.0.1:$port/api/health/ready" >/dev/null && break
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || { echo "a process exited early" >&2; exit 1; }; done
    sleep 1
  done
  echo "  app on $port: $(curl -sf "http://127.0.0.1:$port/api/health/ready")"
done
echo "  through nginx: $(curl -sf "http://127.0.0.1:$proxy_port/api/health")"
echo "  live: $(curl -sf "http://127.0.0.1:$proxy_port/api/health/live")"
grep -q '"worker started"' "$work/worker.log" || { echo "the worker did not start" >&2; exit 1; }

step "an operator imports a property and readings with the CLI, and makes an activation code"
"$node_bin" -e '
  const lines = ["meter_number,timestamp,value"];
  const start = Date.parse("2025-09-30T20:00:00Z");
  for (let h = 0; h <= 80; h++) lines.push(`H-4001-1,${new Date(start + h * 3600e3).toISOString()},${(1000 + 0.5 * h).toFixed(3)}`);
  require("node:fs").writeFileSync(process.argv[1], lines.join("\n") + "\n");
' "$work/readings.csv"
cli() { (cd "$app" && DATA_DIR="$work/data-cli" "$node_bin" dist/server-node/cli.mjs "$@"); }
cli import-property "$repo/docs/examples/property.csv"
cli import "$work/readings.csv" | head -3
code=$(cli activation-code T-4001-1 | sed -n 's/.*: \([A-Z]\{12\}\) (valid until.*/\1/p')
[ -n "$code" ] || { echo "no activation code" >&2; exit 1; }

step "a gateway posts 20 days of readings as CSV through nginx (parsed in the app's CSV worker thread)"
key=$(cli api-key create deploy-smoke --property 1 | sed -n 2p)
[ -n "$key" ] || { echo "no API key" >&2; exit 1; }
"$node_bin" -e '
  const lines = ["meter_number,timestamp,value"];
  const start = Date.parse("2025-10-04T05:00:00Z");
  for (let h = 0; h < 480; h++) lines.push(`H-4001-1,${new Date(start + h * 3600e3).toISOString()},${(1040.5 + 0.5 * h).toFixed(3)}`);
  const body = lines.join("\n") + "\n";
  fetch(process.argv[1] + "/api/ingest/v1/readings", {
    method: "POST",
    headers: { "content-type": "text/csv", authorization: "Bearer " + process.argv[2] },
    body,
  }).then(async (res) => {
    const answer = await res.json();
    const accepted = (answer.results ?? []).filter((r) => r.status === "accepted").length;
    console.log(`${body.length} bytes, ${lines.length - 1} rows: HTTP ${res.status}, ${accepted} accepted`);
    if (res.status !== 200 || accepted !== lines.length - 1) { console.error(JSON.stringify(answer).slice(0, 500)); process.exit(1); }
  });
' "http://127.0.0.1:$proxy_port" "$key"

step "a tenant on app1 slows ingestion on app2 (the people signal through PostgreSQL)"
"$node_bin" scripts/deploy-people.mjs "http://127.0.0.1:$app1_port" "http://127.0.0.1:$app2_port" \
  "http://127.0.0.1:${metrics_ports[1]}" "$key" H-4001-1

step "one login and one graph through nginx"
"$node_bin" scripts/deploy-smoke.mjs "http://127.0.0.1:$proxy_port" "$code" 2025-10-01T00:00 2025-10-04T00:00 \
  "http://127.0.0.1:$app1_port" "http://127.0.0.1:$app2_port"
for pid in "${pids[@]}"; do kill -0 "$pid" || { echo "a process died during the smoke test" >&2; exit 1; }; done
requests=$(wc -l <"$work/nginx/access.log")

step "Prometheus on $prometheus_port scrapes the 3 processes with deploy/prometheus/alerts.yml"
mkdir -p "$work/prometheus"
cat >"$work/prometheus/prometheus.yml" <<PROMETHEUS
global: { scrape_interval: 1s, evaluation_interval: 1s }
rule_files: ["$repo/deploy/prometheus/alerts.yml"]
scrape_configs:
  - job_name: tenant-app
    static_configs: [{ targets: ["127.0.0.1:${metrics_ports[0]}", "127.0.0.1:${metrics_ports[1]}"] }]
  - job_name: tenant-worker
    static_configs: [{ targets: ["127.0.0.1:${metrics_ports[2]}"] }]
PROMETHEUS
prometheus --config.file="$work/prometheus/prometheus.yml" --storage.tsdb.path="$work/prometheus/data" \
  --web.listen-address="127.0.0.1:$prometheus_port" >"$work/prometheus.log" 2>&1 &
pids+=($!)
"$node_bin" scripts/deploy-prometheus.mjs "http://127.0.0.1:$prometheus_port" up 3
step "the worker stopped: Prometheus raises TenantWorkerDown"
kill "$worker_pid"
"$node_bin" scripts/deploy-prometheus.mjs "http://127.0.0.1:$prometheus_port" alert TenantWorkerDown
step "deploy-local OK ($requests requests through nginx)"

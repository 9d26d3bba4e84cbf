/**
 * The deploy kit's Prometheus files (deploy/prometheus): the alerts name only metrics the app exports, and, with
 * promtool (Debian's `prometheus` package; CI installs it, so there it is required), the configuration is valid and
 * the rules pass their unit tests (alerts.test.yml: each alert firing, and not firing).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { getMetrics } from '../../src/server/metrics.ts';
import { mqttMetrics } from '../../src/server/mqtt/subscriber.ts';

const DIR = 'deploy/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const hasPromtool = existsSync(PROMTOOL);

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: string };
  annotations: { summary: string };
}
const rules: Rule[] = (
  parse(readFileSync(`${DIR}/alerts.yml`, 'utf8')) as { groups: { rules: Rule[] }[] }
).groups.flatMap((g) => g.rules);

/** PromQL's functions, aggregations and keywords used in the rules, which are not metric names. */
const PROMQL_WORDS = new Set(['sum', 'max', 'by', 'or', 'rate', 'increase', 'absent', 'histogram_quantile']);

/** The metric names an expression reads: its words, without label matchers, grouping labels, ranges and numbers. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\bby\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ');
  return [...bare.matchAll(/[A-Za-z_:][\w:]*/g)].map((m) => m[0]).filter((w) => !PROMQL_WORDS.has(w));
}

describe('alerts.yml', () => {
  it('reads only metrics the app exports (a histogram through its _bucket and _count series)', async () => {
    mqttMetrics();
    const exported = new Set((await getMetrics().registry.getMetricsAsJSON()).map((m) => m.name));
    exported.add('up'); // Prometheus's own, per target
    const read = [...new Set(rules.flatMap((r) => metricNames(r.expr)))];
    expect(read).toContain('jobs_lag_seconds');
    expect(read).toContain('mqtt_connected');
    const unknown = read.filter((name) => !exported.has(name.replace(/_(bucket|count|sum)$/, '')));
    expect(unknown).toEqual([]);
  });

  it('gives every alert a severity the routing knows and a summary', () => {
    expect(rules.length).toBeGreaterThanOrEqual(10);
    for (const rule of rules) {
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels.severity);
      expect(rule.annotations.summary.length, rule.alert).toBeGreaterThan(20);
    }
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
  });

  it('scrapes every app and worker service of compose.yaml on the port compose gives their metrics', () => {
    const compose = parse(readFileSync('compose.yaml', 'utf8'), { merge: true }) as {
      services: Record<
        string,
        { command?: string[]; environment?: Record<string, string>; volumes?: string[] }
      >;
    };
    const config = parse(readFileSync(`${DIR}/prometheus.yml`, 'utf8')) as {
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    const targets = (job: string) =>
      config.scrape_configs.find((c) => c.job_name === job)?.static_configs.flatMap((c) => c.targets) ?? [];
    const port = compose.services.app1!.environment!.METRICS_PORT;
    expect(port).toBe('9464');
    // The long-running app processes: the app's image, not a one-off step (migrate) or another image.
    const apps = Object.entries(compose.services)
      .filter(([, s]) => s.environment?.METRICS_PORT && !s.command)
      .map(([name]) => `${name}:${port}`);
    expect(apps).toEqual(['app1:9464', 'app2:9464']);
    expect(targets('tenant-app')).toEqual(apps);
    expect(compose.services.worker!.environment!.METRICS_PORT).toBe(port);
    expect(targets('tenant-worker')).toEqual([`worker:${port}`]);
    expect(compose.services.prometheus!.volumes).toContain('./deploy/prometheus:/etc/prometheus:ro');
  });

  // Required in CI (.ci/run installs Debian's prometheus package); skipped on a machine without it.
  it.skipIf(!hasPromtool && !process.env.CI)('passes promtool check config and its unit tests', () => {
    const run = (...args: string[]) => execFileSync(PROMTOOL, args, { encoding: 'utf8', stdio: 'pipe' });
    expect(run('check', 'config', `${DIR}/prometheus.yml`)).toContain('SUCCESS: 10 rules found');
    const tests = parse(readFileSync(`${DIR}/alerts.test.yml`, 'utf8')) as {
      tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    // Every alert is tested firing at least once.
    const firing = new Set(
      tests.tests.flatMap((t) =>
        t.alert_rule_test.filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname),
      ),
    );
    expect([...firing].sort()).toEqual(rules.map((r) => r.alert).sort());
    expect(run('test', 'rules', `${DIR}/alerts.test.yml`)).toContain('SUCCESS');
  });
});

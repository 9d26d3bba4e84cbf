/**
 * The console's portfolio overview at scale: 1,000 properties, 24,000 apartments (24 each) with three metered
 * points each (72,000 meters, their last reading time spread over the last days), a current tenancy per flat,
 * 12,000 invitations and 8,000 activated tenants, 2,000 open data issues. Prints p50/p95/max of `portfolio`
 * through the admin backend in process (an organisation admin; sorts, filters, searches and pages mixed), on
 * PGlite and (with BENCH_DATABASE_URL or TEST_DATABASE_URL) PostgreSQL. Issue 21's bar: p95 ≤ 200 ms. Also the
 * worst case of the stored figures: a read after every property's summary was marked dirty.
 * Run alone: `node --import tsx tests/bench/portfolio.ts [--explain]`; in `npm run bench` unless
 * `--skip-portfolio`. `--explain` also prints the plan (EXPLAIN ANALYZE) of the first page, sorted by number.
 */
import { sql } from 'drizzle-orm';
import { createOperator } from '../../src/server/admin/operators.ts';
import { portfolioStatement } from '../../src/server/admin/portfolio.ts';
import { issueTokens } from '../../src/server/auth/login.ts';
import type { Db } from '../../src/server/db/client.ts';
import { queryRows, refreshStatistics } from '../../src/server/db/sql.ts';
import { createTestApi } from '../api/helpers/api.ts';
import { openBenchDatabase } from './api.ts';

const PROPERTIES = 1_000;
const FLATS = 24;
const REQUESTS = Number(process.env.BENCH_PORTFOLIO_REQUESTS ?? 120);

const QUERY = `query ($f: PortfolioFilter, $s: PortfolioSort, $first: Int, $offset: Int) {
  portfolio(filter: $f, sort: $s, first: $first, offset: $offset) {
    total
    rows { property { id number name address zipcode city } apartments meters metersReporting reportingShare
           lastReadingAt openIssues tenancies invited activated }
  }
}`;

const QUEUE = `query ($f: DataIssueFilter) { dataQualityQueue(filter: $f, first: 50) {
  issues { id kind status propertyId meterNumber reason } unknownRadioIds { radioId } } }`;

/** The portfolio's metadata, set-based (a few statements), in one transaction. */
export async function seedPortfolio(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const [account] = await queryRows<{ id: number }>(
      tx,
      sql`INSERT INTO accounts (name) VALUES ('Bench') RETURNING id`,
    );
    const accountId = account!.id;
    await tx.execute(sql`
      INSERT INTO properties (account_id, number, name, address, zipcode, city)
      SELECT ${accountId}, 'B' || lpad(g::text, 5, '0'), 'Property ' || g, 'Benchvej ' || g, '8000',
             (ARRAY['Aarhus C', 'Odense', 'Aalborg', 'Vejle'])[1 + g % 4]
      FROM generate_series(1, ${PROPERTIES}) g`);
    await tx.execute(sql`
      INSERT INTO apartments (property_id, unique_id, apartment, address, zipcode, city, area_m2, rooms)
      SELECT p.id, 'BU-' || p.id || '-' || f, f || '. th', p.address, p.zipcode, p.city, 70, 3
      FROM properties p CROSS JOIN generate_series(1, ${FLATS}) f WHERE p.account_id = ${accountId}`);
    await tx.execute(sql`
      INSERT INTO measurement_points (property_id, apartment_id, quantity, unit, name, reading_kind)
      SELECT a.property_id, a.id, q.quantity, q.unit, q.quantity, 'register'
      FROM apartments a
      CROSS JOIN (VALUES ('heat-energy', 'kilo-watt-hour'), ('cold-water-volume', 'cubic-meter'),
                         ('electricity-energy', 'kilo-watt-hour')) q(quantity, unit)
      WHERE a.unique_id LIKE 'BU-%'`);
    // Most meters reported within the hour; one in ten a day or more ago, one in a hundred never.
    await tx.execute(sql`
      INSERT INTO meters (measurement_point_id, number, legacy_kind, installed_at, last_reading_at)
      SELECT mp.id, 'BM-' || mp.id, 'energy', now() - interval '2 years',
             CASE WHEN mp.id % 100 = 0 THEN NULL
                  WHEN mp.id % 10 = 0 THEN now() - (mp.id % 96 + 25) * interval '1 hour'
                  ELSE now() - (mp.id % 60) * interval '1 minute' END
      FROM measurement_points mp JOIN apartments a ON a.id = mp.apartment_id WHERE a.unique_id LIKE 'BU-%'`);
    await tx.execute(sql`
      INSERT INTO tenancies (apartment_id, tenancy_id, tenant, start)
      SELECT a.id, 'BT-' || a.id, 'Tenant ' || a.id, DATE '2024-01-01' FROM apartments a
      WHERE a.unique_id LIKE 'BU-%'`);
    await tx.execute(sql`
      INSERT INTO invitations (tenancy_id, email, activation_code)
      SELECT t.id, 'tenant' || t.id || '@bench.test', upper(substr(md5(t.id::text), 1, 12))
      FROM tenancies t WHERE t.tenancy_id LIKE 'BT-%' AND t.id % 2 = 0`);
    await tx.execute(sql`
      INSERT INTO users (email, name, password_hash)
      SELECT 'member' || t.id || '@bench.test', 'Member', 'x' FROM tenancies t
      WHERE t.tenancy_id LIKE 'BT-%' AND t.id % 3 = 0`);
    await tx.execute(sql`
      INSERT INTO tenancy_members (tenancy_id, user_id)
      SELECT t.id, u.id FROM tenancies t JOIN users u ON u.email = 'member' || t.id || '@bench.test'`);
    await tx.execute(sql`
      INSERT INTO data_issues (kind, meter_id, property_id, reading_ts, evidence, source)
      SELECT 'jump', m.id, mp.property_id, now() - (m.id % 500) * interval '1 hour', '{}'::jsonb, 'csv'
      FROM meters m JOIN measurement_points mp ON mp.id = m.measurement_point_id
      WHERE m.number LIKE 'BM-%' AND m.id % 36 = 0`);
    await refreshStatistics(tx);
    return accountId;
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** The variables of request i: every sort key both ways, the filters, searches and deep pages. */
function variables(i: number): Record<string, unknown> {
  const keys = [
    'NUMBER',
    'NAME',
    'CITY',
    'LAST_READING',
    'REPORTING_SHARE',
    'OPEN_ISSUES',
    'INVITED',
    'ACTIVATED',
  ];
  const s = { key: keys[i % keys.length], direction: i % 2 ? 'DESC' : 'ASC' };
  const filters = [
    {},
    { freshness: 'INCOMPLETE' },
    { withOpenIssues: true },
    { search: 'Odense' },
    { search: '42' },
  ];
  return { s, f: filters[i % filters.length], first: 50, offset: ((i * 7) % 20) * 50 };
}

export async function benchPortfolio(engine: 'pglite' | 'postgres', adminUrl?: string): Promise<void> {
  const { database, cleanup } = await openBenchDatabase(engine, adminUrl);
  try {
    const seeded = performance.now();
    const accountId = await seedPortfolio(database.db);
    const seedSeconds = (performance.now() - seeded) / 1000;
    // A long token: on a loaded machine the bench can outlast the default 5 minutes.
    const api = await createTestApi(database, { ACCESS_TOKEN_TTL: '3600' });
    const { operator } = await createOperator(
      database.db,
      { operatorId: null, actor: 'bench' },
      { email: 'bench-admin@bench.test', role: 'org_admin', accountId, password: 'Bench#Password2026' },
    );
    const { token } = await issueTokens(database.db, api.services.config, 'admin', api.services.keys.admin, {
      id: operator.id,
      email: operator.email,
    });
    const ask = async (vars: Record<string, unknown>) => {
      const response = await api.admin.fetch('http://bench/api/admin/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: QUERY, variables: vars }),
      });
      const body = (await response.json()) as { data?: { portfolio: { total: number } }; errors?: unknown };
      if (!body.data) throw new Error(JSON.stringify(body.errors));
      return body.data.portfolio.total;
    };
    // Warm-up: plans and caches, as a server that has run a while has them.
    for (let i = 0; i < 5; i++) await ask(variables(i));
    const times: number[] = [];
    // Sorted by the property's own columns with no filter on the figures (the default view: only the page's
    // properties are counted), against sorted or filtered by a figure (every property in scope is counted).
    const byKind = { page: [] as number[], all: [] as number[] };
    for (let i = 0; i < REQUESTS; i++) {
      const vars = variables(i);
      const started = performance.now();
      await ask(vars);
      const took = performance.now() - started;
      times.push(took);
      const f = vars.f as { freshness?: string; withOpenIssues?: boolean };
      const pageFirst =
        ['NUMBER', 'NAME', 'CITY'].includes((vars.s as { key: string }).key) &&
        !f.freshness &&
        !f.withOpenIssues;
      byKind[pageFirst ? 'page' : 'all'].push(took);
    }
    times.sort((a, b) => a - b);
    for (const list of Object.values(byKind)) list.sort((a, b) => a - b);
    const total = await ask({});
    // The worst case of the stored figures (property_summaries): every property changed since the last read (an
    // hour of readings for every meter), so the read recomputes all 1,000 before it answers.
    const recomputes: number[] = [];
    for (let i = 0; i < 3; i++) {
      await database.db.execute(sql`UPDATE property_summaries SET dirty = true`);
      const started = performance.now();
      await ask(variables(3));
      recomputes.push(performance.now() - started);
    }
    // The data-quality queue over the same organisation (2,000 open issues): all properties, and one at a time.
    const queueTimes: number[] = [];
    const propertyIds = (
      await queryRows<{ id: number }>(
        database.db,
        sql`SELECT id FROM properties WHERE account_id = ${accountId} ORDER BY id`,
      )
    ).map((p) => String(p.id));
    for (let i = 0; i < REQUESTS; i++) {
      const filter =
        i % 2
          ? { status: 'OPEN' }
          : { status: 'OPEN', propertyId: propertyIds[(i * 37) % propertyIds.length] };
      const started = performance.now();
      const response = await api.admin.fetch('http://bench/api/admin/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: QUEUE, variables: { f: filter } }),
      });
      const body = (await response.json()) as { data?: unknown; errors?: unknown };
      if (!body.data) throw new Error(JSON.stringify(body.errors));
      queueTimes.push(performance.now() - started);
    }
    queueTimes.sort((a, b) => a - b);
    console.log(
      `  dataQualityQueue, ${REQUESTS} requests (all properties, or one; first 50 open issues): p50 ${percentile(queueTimes, 50).toFixed(0)} ms, p95 ${percentile(queueTimes, 95).toFixed(0)} ms, max ${queueTimes.at(-1)!.toFixed(0)} ms`,
    );
    if (process.argv.includes('--explain')) {
      const statement = portfolioStatement(
        { userId: operator.id, email: operator.email, role: 'org_admin', accountId, propertyIds: null },
        { sort: 'NUMBER', descending: false, limit: 50, offset: 0, now: new Date() },
      );
      const plan = await queryRows<{ 'QUERY PLAN': string }>(
        database.db,
        sql`EXPLAIN (ANALYZE, BUFFERS) ${statement}`,
      );
      console.log(plan.map((r) => r['QUERY PLAN']).join('\n'));
    }
    console.log(
      `\nPortfolio overview on ${engine}: ${total} properties, ${PROPERTIES * FLATS} apartments, ${PROPERTIES * FLATS * 3} meters (seeded in ${seedSeconds.toFixed(1)} s)`,
    );
    console.log(
      `  portfolio, ${REQUESTS} requests one at a time (sorts, filters, searches, pages of 50): p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms`,
    );
    console.log(
      `  the first read after every property changed (all 1,000 summaries recomputed): ${recomputes.map((t) => t.toFixed(0)).join(', ')} ms`,
    );
    for (const [kind, list] of [
      ['sorted by number, name or city, no figure filter', byKind.page],
      ['sorted or filtered by a figure', byKind.all],
    ] as const)
      console.log(
        `    ${kind} (${list.length}): p50 ${percentile(list, 50).toFixed(0)} ms, p95 ${percentile(list, 95).toFixed(0)} ms`,
      );
  } finally {
    await database.close();
    await cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchPortfolio('pglite');
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (pgUrl) await benchPortfolio('postgres', pgUrl);
  else console.log('\n(PostgreSQL skipped: set BENCH_DATABASE_URL=postgres://… to include it)');
}

/**
 * Tenants are told about their monthly reports (issue 22): the consumption-report job generates the month's
 * report and its notice (app and mail) links to it with the report's comparison; the account backend lists a
 * tenancy's reports to its members only, within its dates and its grace period. PGlite and PostgreSQL.
 */
import { and, eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  accounts,
  mailOutbox,
  monthlyReports,
  notifications,
  tenancies,
} from '../../src/server/db/schema.ts';
import { manualClock } from '../../src/server/jobs/clock.ts';
import { enqueue } from '../../src/server/jobs/queue.ts';
import { createJobRunner } from '../../src/server/jobs/runner.ts';
import { consumptionReportTask } from '../../src/server/jobs/tasks/consumptionReport.ts';
import { notificationMailTask } from '../../src/server/jobs/tasks/notificationMail.ts';
import type { MonthlyReport } from '../../src/server/reports/model.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase, testEngine } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';

let database: Database;
let api: TestApi;
let fx: Fixture;
const ids: Record<string, number> = {};
const token = async (backend: 'account' | 'tenant', user: { id: number; email: string }) =>
  (await signAccessToken(backend, api.services.keys[backend], user, 300)).token;

beforeAll(async () => {
  database = await freshDatabase();
  api = await createTestApi(database);
  fx = await seedFixture(database.db);
  for (const t of await database.db.select().from(tenancies)) ids[t.tenancyId] = t.id;
});
afterAll(async () => {
  await database?.close();
});

describe(`the monthly notice links the report and carries its comparison (${testEngine})`, () => {
  it('generates the month report, links it in the app and the mail, with the month before', async () => {
    const appUrl = process.env.APP_URL;
    process.env.APP_URL = 'https://app.example.test';
    try {
      const clock = manualClock(new Date('2025-04-06T06:00:00Z'));
      const runner = createJobRunner({ db: database.db, logger: pino({ level: 'silent' }), clock });
      await enqueue(
        database.db,
        consumptionReportTask,
        { tenancyId: ids['T-B-2024']!, month: '2025-03' },
        clock.now(),
      );
      await runner.drain();
      clock.advance(120_000);
      await runner.drain();
    } finally {
      if (appUrl === undefined) delete process.env.APP_URL;
      else process.env.APP_URL = appUrl;
    }

    const [report] = await database.db
      .select()
      .from(monthlyReports)
      .where(and(eq(monthlyReports.tenancyId, ids['T-B-2024']!), eq(monthlyReports.month, '2025-03-01')));
    expect(report).toBeDefined();
    const heat = (report!.content as MonthlyReport).quantities.find((q) => q.quantity === 'heat-energy')!;
    // Apartment B uses 3 kWh every hour: March has 743 hours (the spring DST day has 23); February's data
    // starts on the 20th: 9 days × 72 kWh.
    expect(heat).toMatchObject({ month: 2229, previousMonth: 648, sameMonthLastYear: null });

    const [notice] = await database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, fx.users.bob.id), eq(notifications.kind, 'consumption_report')));
    const app = await gql<{
      notification: {
        reportUrl: string | null;
        comparison: {
          quantity: string;
          value: number;
          previousMonth: number;
          sameMonthLastYear: number | null;
        }[];
        totals: { quantity: string; value: number }[];
      };
    }>(
      api.tenant,
      `query($t: ID!, $id: ID!) { notification(tenancyId: $t, id: $id) {
        reportUrl comparison { quantity value previousMonth sameMonthLastYear } totals { quantity value } } }`,
      { t: String(ids['T-B-2024']), id: String(notice!.id) },
      await token('tenant', fx.users.bob),
    );
    expect(app.errors).toBeUndefined();
    expect(app.data!.notification.reportUrl).toBe(`/report/${report!.code}`);
    expect(app.data!.notification.comparison).toContainEqual({
      quantity: 'heat-energy',
      value: 2229,
      previousMonth: 648,
      sameMonthLastYear: null,
    });

    const [mail] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, fx.users.bob.email));
    expect(mail!.subject).toBe('Your consumption report for March 2025');
    // 2229 against 648 is +244 %.
    expect(mail!.body).toContain('Heat energy: 2,229 kWh · the month before 648 kWh (+244%)');
    expect(mail!.body).toContain(
      `Your report for March 2025: https://app.example.test/report/${report!.code}?lang=en`,
    );
  });
});

describe(`the notice mail's report link without APP_URL (${testEngine})`, () => {
  it("uses the app's own http://HOST:PORT, in the mail's language", async () => {
    const [first] = await database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, fx.users.bob.id), eq(notifications.kind, 'consumption_report')));
    const code = (first!.details as { report: { code: string } }).report.code;
    // The same notice again, not yet mailed (a new key), for a mail of its own.
    const { id: _id, ...notice } = first!;
    await database.db.insert(notifications).values({ ...notice, key: `${notice.key}:again`, mailedAt: null });
    const saved = { APP_URL: process.env.APP_URL, HOST: process.env.HOST, PORT: process.env.PORT };
    delete process.env.APP_URL;
    process.env.HOST = '127.0.0.1';
    process.env.PORT = '4987';
    try {
      const clock = manualClock(new Date('2025-04-07T06:00:00Z'));
      const runner = createJobRunner({ db: database.db, logger: pino({ level: 'silent' }), clock });
      await enqueue(
        database.db,
        notificationMailTask,
        { userId: fx.users.bob.id, bucket: 'again' },
        clock.now(),
      );
      await runner.drain();
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
    const mails = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, fx.users.bob.email));
    // Before issue 22's fix the mail had no report link at all without APP_URL.
    expect(mails.at(-1)!.body).toContain(
      `Your report for March 2025: http://127.0.0.1:4987/report/${code}?lang=en`,
    );
  });
});

describe(`the tenancy's monthly reports list (${testEngine})`, () => {
  const query = `query($id: ID!) { monthlyReports(tenancyId: $id) { month url expiresAt } }`;
  const future = new Date(Date.now() + 30 * 86_400_000);
  const listOf = async (user: { id: number; email: string }, tenancy: string) =>
    gql<{ monthlyReports: { month: string; url: string }[] }>(
      api.account,
      query,
      { id: String(ids[tenancy]) },
      await token('account', user),
    );

  beforeAll(async () => {
    const row = (tenancy: string, month: string, expiresAt = future) => ({
      code: `code-${tenancy}-${month}`,
      tenancyId: ids[tenancy]!,
      month,
      language: 'en',
      content: {},
      expiresAt,
    });
    await database.db.delete(monthlyReports);
    await database.db.insert(monthlyReports).values([
      // Tenancy A runs from 2025-03-01: February is the previous tenant's month.
      row('T-A-2025', '2025-02-01'),
      row('T-A-2025', '2025-03-01'),
      row('T-A-2025', '2025-10-01'),
      row('T-A-2025', '2025-09-01', new Date(Date.now() - 1000)),
      // The previous tenancy of the same flat ended 2025-02-28: March is not its month.
      row('T-A-2024', '2025-02-01'),
      row('T-A-2024', '2025-03-01'),
      row('T-B-2024', '2025-03-01'),
    ]);
  });

  it("lists a member's reports within the tenancy's dates, newest first, without expired ones", async () => {
    const alice = await listOf(fx.users.alice, 'T-A-2025');
    expect(alice.errors).toBeUndefined();
    expect(alice.data!.monthlyReports).toEqual([
      expect.objectContaining({ month: '2025-10-01', url: '/report/code-T-A-2025-2025-10-01' }),
      expect.objectContaining({ month: '2025-03-01', url: '/report/code-T-A-2025-2025-03-01' }),
    ]);
  });

  it("refuses another tenancy's reports with FORBIDDEN, and a malformed id alike", async () => {
    expect(errorCode(await listOf(fx.users.bob, 'T-A-2025'))).toBe('FORBIDDEN');
    expect(errorCode(await listOf(fx.users.alice, 'T-B-2024'))).toBe('FORBIDDEN');
    const malformed = await gql(api.account, query, { id: 'x' }, await token('account', fx.users.alice));
    expect(errorCode(malformed)).toBe('FORBIDDEN');
    const bob = await listOf(fx.users.bob, 'T-B-2024');
    expect(bob.data!.monthlyReports.map((r) => r.month)).toEqual(['2025-03-01']);
  });

  it('gives a moved-out tenant their own months during the grace period, and nothing after it', async () => {
    await database.db.update(accounts).set({ moveOutGraceMonths: 120 }).where(eq(accounts.id, fx.accountId));
    const during = await listOf(fx.users.previous, 'T-A-2024');
    expect(during.data!.monthlyReports.map((r) => r.month)).toEqual(['2025-02-01']);
    // 2025-02-28 + 1 month is long past: the grace period is over.
    await database.db.update(accounts).set({ moveOutGraceMonths: 1 }).where(eq(accounts.id, fx.accountId));
    const after = await listOf(fx.users.previous, 'T-A-2024');
    expect(after.errors).toBeUndefined();
    expect(after.data!.monthlyReports).toEqual([]);
    await database.db.execute(sql`UPDATE accounts SET move_out_grace_months = 12`);
  });
});

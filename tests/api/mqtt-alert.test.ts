/**
 * The MQTT feed check (src/server/mqtt/alert.ts), run by the worker's schedule: a subscriber down (not connected,
 * or not reporting) for 15 minutes is told once to the admins of the organisation that runs the feed, in their
 * language; its return once more; a shorter blip not at all; nobody else is mailed.
 */
import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { mailOutbox, mqttFeed, users } from '../../src/server/db/schema.ts';
import { manualClock } from '../../src/server/jobs/clock.ts';
import { type MailTransport, smtpTransport } from '../../src/server/jobs/mail.ts';
import { createJobRunner } from '../../src/server/jobs/runner.ts';
import { reportFeed } from '../../src/server/mqtt/status.ts';
import { type AdminFixture, seedAdminFixture } from './helpers/adminFixture.ts';
import { freshDatabase } from './helpers/db.ts';
import { startTestSmtp, type TestSmtp } from './helpers/smtp.ts';

let database: Database;
let fx: AdminFixture;
let smtp: TestSmtp;

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedAdminFixture(database.db);
  // The first organisation's admin reads Danish.
  await database.db.update(users).set({ language: 'da' }).where(eq(users.id, fx.ops.admin1.id));
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await database?.close();
});

const MIN = 60_000;

/** No mail and no feed rows yet; a job runner on a manual clock at t0 whose feed is the second organisation's. */
async function orgTwoRunner(t0: Date, mail?: MailTransport) {
  await database.db.delete(mailOutbox);
  await database.db.delete(mqttFeed);
  const clock = manualClock(t0);
  const runner = createJobRunner({
    db: database.db,
    logger: pino({ level: 'silent' }),
    clock,
    mqttOrganisation: 'Org Two',
    mail,
  });
  return { clock, runner };
}

describe('the MQTT feed check', () => {
  it('tells the feed organisation’s admins once when the feed is down 15 minutes, and once when it is back', async () => {
    const db = database.db;
    const t0 = new Date('2026-11-28T10:00:00Z');
    const clock = manualClock(t0);
    const runner = createJobRunner({
      db,
      logger: pino({ level: 'silent' }),
      clock,
      mqttOrganisation: String(fx.org1),
    });
    const mails = async () =>
      (await db.select().from(mailOutbox).orderBy(mailOutbox.id)).map((m) => ({
        to: m.to,
        subject: m.subject,
        body: m.body,
      }));
    /** A report at `since`; its time is the database's clock, so it is set to the test's. */
    const report = async (connected: boolean, since: Date, lastError: string | null = null) => {
      await reportFeed(db, {
        clientId: 'tenant-app-ingest',
        url: 'mqtt://broker.example:1883',
        topic: 'wmbusmeters/#',
        connected,
        since,
        lastError,
        lastTelegramAt: null,
      });
      await db.update(mqttFeed).set({ reportedAt: since });
    };
    const at = (ms: number) => {
      const d = new Date(t0.getTime() + ms);
      clock.set(d);
      return d;
    };

    // A blip: down 5 minutes, then back. Nobody is told.
    await report(false, at(0), 'connect ECONNREFUSED 10.0.0.5:1883');
    at(5 * MIN);
    await runner.tick();
    await report(true, at(6 * MIN));
    at(21 * MIN);
    await db.update(mqttFeed).set({ reportedAt: at(21 * MIN) });
    await runner.tick();
    expect(await mails()).toEqual([]);

    // Down at 30 min; told at the first check 15 minutes later, once.
    await report(false, at(30 * MIN), 'connect ECONNREFUSED 10.0.0.5:1883');
    await db.update(mqttFeed).set({ reportedAt: at(44 * MIN) });
    await runner.tick();
    expect(await mails()).toEqual([]);
    await db.update(mqttFeed).set({ reportedAt: at(46 * MIN) });
    await runner.tick();
    const down = await mails();
    expect(down.map((m) => m.to)).toEqual([fx.ops.admin1.email]);
    expect(down[0]!.subject).toBe('Radiofeed (MQTT) nede siden 28. nov. 2026, 11.30');
    expect(down[0]!.body).toContain(
      'MQTT-abonnenten tenant-app-ingest har ikke været forbundet til mqtt://broker.example:1883 siden 28. nov. 2026, 11.30.',
    );
    expect(down[0]!.body).toContain('Brokerens seneste fejl: connect ECONNREFUSED 10.0.0.5:1883');
    await db.update(mqttFeed).set({ reportedAt: at(80 * MIN) });
    await runner.tick();
    expect(await mails()).toHaveLength(1);

    // Back: told once.
    await report(true, at(90 * MIN));
    await runner.tick();
    await db.update(mqttFeed).set({ reportedAt: at(100 * MIN) });
    await runner.tick();
    const all = await mails();
    expect(all).toHaveLength(2);
    expect(all[1]!.subject).toBe('Radiofeed (MQTT) oppe igen siden 28. nov. 2026, 12.30');

    // The subscriber stops reporting (its process is down): told after 15 minutes without a report.
    at(130 * MIN);
    await runner.tick();
    expect(await mails()).toHaveLength(3);
    expect((await mails())[2]!.body).toContain('har ikke meldt sig siden 28. nov. 2026, 12.40');

    // The other organisation's admin, and the managers, were never mailed.
    expect(new Set((await mails()).map((m) => m.to))).toEqual(new Set([fx.ops.admin1.email]));
  });

  it('the other organisation running the feed: its admin is told, in English, through a real SMTP server', async () => {
    const db = database.db;
    const t0 = new Date('2026-11-29T10:00:00Z');
    const { clock, runner } = await orgTwoRunner(
      t0,
      smtpTransport(smtp.url, 'Tenant App <no-reply@tenant-app.test>'),
    );
    await reportFeed(db, {
      clientId: 'c',
      url: 'mqtt://b',
      topic: '#',
      connected: false,
      since: t0,
      lastError: null,
      lastTelegramAt: null,
    });
    await db.update(mqttFeed).set({ reportedAt: new Date(t0.getTime() + 16 * MIN) });
    clock.set(new Date(t0.getTime() + 16 * MIN));
    await runner.tick();
    const sent = await db.select().from(mailOutbox);
    expect(sent.map((m) => m.to)).toEqual([fx.ops.admin2.email]);
    expect(sent[0]!.subject).toBe('Radio feed (MQTT) down since 29 Nov 2026, 11:00');
    // The send-mail job the check queued ran in the same tick, and the mail reached the SMTP server.
    const received = await smtp.waitFor((m) => m.to.includes(fx.ops.admin2.email), 5_000);
    expect(received.subject).toBe('Radio feed (MQTT) down since 29 Nov 2026, 11:00');
    expect(received.text).toContain('has not been connected to mqtt://b since 29 Nov 2026, 11:00');
    expect((await db.select().from(mailOutbox))[0]!.sentAt).not.toBeNull();
    expect(smtp.mails).toHaveLength(1);
  });

  it('a changed client id takes over the old one’s row: its outage was told, and its end is told under the new id', async () => {
    const db = database.db;
    // The database's clock decides which rows stopped reporting, so this test runs on real time.
    const t0 = new Date(Date.now() - 60 * MIN);
    const { clock, runner } = await orgTwoRunner(t0);
    const feed = { url: 'mqtt://broker.example:1883', topic: 'wmbusmeters/#', lastError: null };
    const stored = new Date(t0.getTime() - 5 * MIN);
    await reportFeed(db, {
      clientId: 'old-id',
      ...feed,
      connected: false,
      since: t0,
      lastTelegramAt: stored,
    });
    await db.update(mqttFeed).set({ reportedAt: t0 }).where(eq(mqttFeed.clientId, 'old-id'));
    clock.set(new Date(t0.getTime() + 20 * MIN));
    await runner.tick();
    expect((await db.select().from(mailOutbox)).map((m) => m.body)).toEqual([
      expect.stringContaining(
        'The MQTT subscriber old-id (mqtt://broker.example:1883) has not reported since',
      ),
    ]);

    // Not retired: another client id on the same broker and topic that still reports (a second subscriber), and
    // one on another topic that stopped (another feed); nor by a subscriber that is not connected. (Rows as other
    // processes left them: reportFeed would have them retire old-id themselves.)
    await db.insert(mqttFeed).values([
      { clientId: 'twin', ...feed, connected: true, since: t0, reportedAt: new Date() },
      { clientId: 'elsewhere', ...feed, topic: 'other/#', connected: true, since: t0, reportedAt: t0 },
    ]);
    const next = { ...feed, since: new Date(), lastTelegramAt: null };
    expect(await reportFeed(db, { clientId: 'new-id', ...next, connected: false })).toEqual([]);
    expect(await reportFeed(db, { clientId: 'new-id', ...next, connected: true })).toEqual(['old-id']);
    const rows = await db.select().from(mqttFeed).orderBy(mqttFeed.clientId);
    expect(rows.map((r) => r.clientId)).toEqual(['elsewhere', 'new-id', 'twin']);
    const taken = rows.find((r) => r.clientId === 'new-id')!;
    expect(taken.lastTelegramAt?.getTime()).toBe(stored.getTime());
    expect(taken.alertedAt).not.toBeNull();

    // The next check tells the outage's end, under the new id, and nothing more about the old one.
    await db.delete(mqttFeed).where(inArray(mqttFeed.clientId, ['twin', 'elsewhere']));
    clock.set(new Date());
    await runner.tick();
    const sent = await db.select().from(mailOutbox).orderBy(mailOutbox.id);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.subject).toMatch(/^Radio feed \(MQTT\) back since /);
    expect(sent[1]!.body).toContain(
      'The MQTT subscriber new-id is connected to mqtt://broker.example:1883 again',
    );
    await runner.tick();
    expect(await db.select().from(mailOutbox)).toHaveLength(2);
  });
});

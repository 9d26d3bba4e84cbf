/**
 * Alarm evaluation by the worker with a moved clock, each rule at its boundaries (equal to the threshold, one unit
 * above, a missing day, a DST day), and the notifications it files. CRUD and access are in alarms.test.ts.
 */
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  alarms as alarmTable,
  hourlyConsumption,
  jobs,
  mailOutbox,
  measurementPoints,
  notifications,
} from '../../src/server/db/schema.ts';
import { manualClock } from '../../src/server/jobs/clock.ts';
import { createJobRunner } from '../../src/server/jobs/runner.ts';
import { heatDay, setUpAlarmApi } from './helpers/alarms.ts';
import { errorCode, gql } from './helpers/api.ts';
import { hoursOf } from './helpers/fixtures.ts';

const NOTIFICATIONS = `query ($t: ID!) { notifications(tenancyId: $t) { totalCount unreadCount
  items { id kind alarmId quantity frequency periodStart periodEnd value reference reason read totals { quantity value } } } }`;
const NOTIFICATION = `query ($t: ID!, $id: ID!) { notification(tenancyId: $t, id: $id) { id read kind } }`;
const MARK = `mutation ($t: ID!, $id: ID!, $r: Boolean) { markNotificationRead(tenancyId: $t, id: $id, read: $r) { id read } }`;
const MARK_ALL = `mutation ($t: ID!) { markAllNotificationsRead(tenancyId: $t) { ok count } }`;

const s = setUpAlarmApi();
const { create, get } = s;
const clock = manualClock(new Date('2025-03-31T06:00:00Z'));
const runner = () => createJobRunner({ db: s.database.db, logger: pino({ level: 'silent' }), clock });

describe('evaluation by the worker', () => {
  it('on the 23-hour DST day: equal to the threshold stays OK, one unit above fires, once', async () => {
    // Bob's heat is 3 kWh every hour: 2025-03-30 has 23 hours, so 69 kWh.
    const equal = await create('bob', s.tenancyB, heatDay(69));
    const above = await create('bob', s.tenancyB, heatDay(68));
    clock.set(new Date('2025-03-31T06:00:00Z'));
    await runner().tick();
    const ok = await get('bob', s.tenancyB, equal.id);
    expect(ok.status).toBe('OK');
    expect(ok.history).toEqual([
      { periodStart: '2025-03-30', state: 'OK', value: 69, reference: 69, reason: null },
    ]);
    const fired = await get('bob', s.tenancyB, above.id);
    expect(fired.status).toBe('TRIGGERED');
    expect(fired.lastFired).toMatchObject({
      periodStart: '2025-03-30',
      value: 69,
      reference: 68,
      reason: 'above_threshold',
    });

    // Once per period: another tick an hour later writes nothing new.
    clock.advance(3_600_000);
    await runner().tick();
    const list = await gql<{ notifications: { items: { alarmId: string; kind: string; value: number }[] } }>(
      s.api.tenant,
      NOTIFICATIONS,
      { t: s.tenancyB },
      s.tokens.bob,
    );
    const mine = list.data!.notifications.items.filter((n) => n.alarmId === above.id);
    expect(mine).toEqual([expect.objectContaining({ kind: 'HIGH_CONSUMPTION', value: 69 })]);
    expect(list.data!.notifications.items.some((n) => n.alarmId === equal.id)).toBe(false);
  });

  it('increase: the DST day against the day before (72 kWh) is no increase', async () => {
    const cmp = await create('bob', s.tenancyB, heatDay(0, 'COMPARISON'));
    clock.set(new Date('2025-03-31T08:00:00Z'));
    await runner().tick();
    expect((await get('bob', s.tenancyB, cmp.id)).history[0]).toMatchObject({ state: 'OK', value: 69 });
  });

  it('a week with a missing day waits for the data, then records "unknown" and never fires', async () => {
    // Data ends on 2025-04-05 (the range ends 2025-04-06 exclusive): the week Mar 31 to Apr 6 lacks a day.
    const week = await create('bob', s.tenancyB, { ...heatDay(1), frequency: 'WEEK' });
    clock.set(new Date('2025-04-07T06:00:00Z'));
    await runner().tick();
    expect((await get('bob', s.tenancyB, week.id)).history).toEqual([]);
    const [job] = await s.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `evaluate-alarm:alarm:${week.id}:2025-03-31`));
    expect(job).toMatchObject({ status: 'pending', attempts: 0 });
    clock.set(new Date('2025-04-11T06:00:00Z'));
    await runner().tick();
    const after = await get('bob', s.tenancyB, week.id);
    expect(after.status).toBe('OK');
    expect(after.history).toEqual([
      { periodStart: '2025-03-31', state: 'UNKNOWN', value: null, reference: 1, reason: 'missing_data' },
    ]);
    expect(after.lastFired).toBeNull();
  });

  it("indoor climate: the average of both rooms against the maximum, in the user's language by mail", async () => {
    // Alice (da): living room 20, 21, 22 in turn and bedroom 24: a 24-hour day averages 22.5 °C.
    const equal = await create('alice', s.tenancyA, {
      type: 'INDOOR_CLIMATE',
      quantity: 'indoor-temperature',
      frequency: 'DAY',
      maximum: 22.5,
    });
    const above = await create('alice', s.tenancyA, {
      type: 'INDOOR_CLIMATE',
      quantity: 'indoor-temperature',
      frequency: 'DAY',
      minimum: 15,
      maximum: 22.4,
    });
    clock.set(new Date('2025-03-21T06:00:00Z'));
    await runner().tick();
    expect((await get('alice', s.tenancyA, equal.id)).history[0]).toMatchObject({ state: 'OK', value: 22.5 });
    expect((await get('alice', s.tenancyA, above.id)).lastFired).toMatchObject({
      periodStart: '2025-03-20',
      reason: 'above_maximum',
      reference: 22.4,
    });
    // The mail step runs a minute later and writes one mail in Danish (besides March's report from earlier).
    clock.advance(120_000);
    await runner().drain();
    const mails = await s.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, s.fx.users.alice.email));
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'Din forbrugsrapport for marts 2025',
      'Indeklima: Indetemperatur',
    ]);
    expect(mails.find((m) => m.subject.startsWith('Indeklima'))!.body).toContain(
      'over dit maksimum på 22,4 °C',
    );
  });
  it('zero consumption and the leak rule on water: a dry day, a day with use in every hour, a day with dry hours at 00 and 12', async () => {
    // Bob's apartment gets a cold-water meter: 20 March dry, 21 March 4 L every hour, 22 March the same but
    // 00:00 and 12:00, so no run of 24 hours ends on the 22nd (a run from the 21st into the 22nd would).
    const [point] = await s.database.db
      .insert(measurementPoints)
      .values({
        propertyId: s.fx.propertyId,
        apartmentId: s.fx.apartmentB,
        quantity: 'cold-water-volume',
        unit: 'cubic-meter',
        name: 'Cold water',
        readingKind: 'register',
      })
      .returning();
    const rows = hoursOf('2025-03-20', '2025-03-23').map((h) => {
      const local = h.toZonedDateTimeISO('Europe/Copenhagen');
      const day = local.toPlainDate().toString();
      const dry = day === '2025-03-20' || (day === '2025-03-22' && (local.hour === 0 || local.hour === 12));
      return {
        measurementPointId: point!.id,
        hourStart: new Date(h.epochMilliseconds),
        value: dry ? '0' : '0.004',
      };
    });
    await s.database.db.insert(hourlyConsumption).values(rows);
    await s.database.db.execute(sql`
      INSERT INTO daily_rollups (measurement_point_id, day, sum, min, max, count)
      SELECT measurement_point_id, (hour_start AT TIME ZONE 'Europe/Copenhagen')::date, sum(value), min(value), max(value), count(*)
      FROM hourly_consumption WHERE measurement_point_id = ${point!.id} GROUP BY 1, 2`);
    const leak = await create('bob', s.tenancyB, {
      type: 'ZERO_CONSUMPTION',
      quantity: 'cold-water-volume',
      frequency: 'DAY',
      leakRule: true,
    });
    const history = async () => (await get('bob', s.tenancyB, leak.id)).history;
    clock.set(new Date('2025-03-21T06:00:00Z'));
    await runner().tick();
    expect((await history())[0]).toMatchObject({
      periodStart: '2025-03-20',
      state: 'FIRED',
      value: 0,
      reason: 'zero',
    });
    clock.set(new Date('2025-03-22T06:00:00Z'));
    await runner().tick();
    expect((await history())[0]).toMatchObject({ periodStart: '2025-03-21', state: 'FIRED', reason: 'leak' });
    clock.set(new Date('2025-03-23T06:00:00Z'));
    await runner().tick();
    expect((await history())[0]).toMatchObject({ periodStart: '2025-03-22', state: 'OK' });
    const list = await gql<{ notifications: { items: { alarmId: string; kind: string; reason: string }[] } }>(
      s.api.tenant,
      NOTIFICATIONS,
      { t: s.tenancyB },
      s.tokens.bob,
    );
    expect(
      list.data!.notifications.items.filter((n) => n.alarmId === leak.id).map((n) => [n.kind, n.reason]),
    ).toEqual([
      ['HIGH_CONSUMPTION', 'leak'],
      ['ZERO_CONSUMPTION', 'zero'],
    ]);
    await s.database.db
      .update(alarmTable)
      .set({ enabled: false })
      .where(eq(alarmTable.id, Number(leak.id)));
  });
});

describe('notifications', () => {
  it('lists newest first, marks one read and unread, marks all read, and hides them from others', async () => {
    const list = async () =>
      (
        await gql<{
          notifications: { unreadCount: number; totalCount: number; items: { id: string; read: boolean }[] };
        }>(s.api.tenant, NOTIFICATIONS, { t: s.tenancyB }, s.tokens.bob)
      ).data!.notifications;
    const rows = await s.database.db.select().from(notifications);
    expect(rows.length).toBeGreaterThan(0);
    const first = await list();
    expect(first.unreadCount).toBe(first.totalCount);
    const id = first.items[0]!.id;
    expect((await gql(s.api.tenant, MARK, { t: s.tenancyB, id }, s.tokens.bob)).data).toEqual({
      markNotificationRead: { id, read: true },
    });
    expect((await list()).unreadCount).toBe(first.totalCount - 1);
    await gql(s.api.tenant, MARK, { t: s.tenancyB, id, r: false }, s.tokens.bob);
    expect((await list()).unreadCount).toBe(first.totalCount);
    expect(errorCode(await gql(s.api.tenant, NOTIFICATION, { t: s.tenancyB, id }, s.tokens.alice))).toBe(
      'FORBIDDEN',
    );
    // On Alice's own tenancy, Bob's notification id and an unknown one get the same NOT_FOUND.
    for (const nid of [id, '999999', 'nope']) {
      const r = await gql(s.api.tenant, NOTIFICATION, { t: s.tenancyA, id: nid }, s.tokens.alice);
      expect(errorCode(r)).toBe('NOT_FOUND');
      expect(r.errors![0]!.message).toBe('No such notification');
    }
    expect(errorCode(await gql(s.api.tenant, MARK, { t: s.tenancyA, id }, s.tokens.alice))).toBe('NOT_FOUND');
    expect(errorCode(await gql(s.api.tenant, MARK_ALL, { t: s.tenancyB }, s.tokens.alice))).toBe('FORBIDDEN');
    const all = await gql(s.api.tenant, MARK_ALL, { t: s.tenancyB }, s.tokens.bob);
    expect(all.data).toEqual({ markAllNotificationsRead: { ok: true, count: first.totalCount } });
    expect((await list()).unreadCount).toBe(0);
  });
});

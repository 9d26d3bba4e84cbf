/**
 * Tenancy dates in the alarm reads and jobs (issue 24, finding 1): `alarmValues`, the alarm evaluator and the
 * monthly consumption-report notification read only the days inside the tenancy, tried from both sides of a
 * move-in and a move-out: the successor, the predecessor, and an ended tenancy with an enabled alarm.
 *
 * Fixture: in apartment A, "Previous" lived until 2025-02-28 and Alice from 2025-03-01. This file adds a
 * move in the middle of March in apartment B: Bob until 2025-03-14, Dave from 2025-03-15.
 */
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  alarmEvaluations,
  alarms,
  notifications,
  tenancies,
  tenancyMembers,
  users,
} from '../../src/server/db/schema.ts';
import { manualClock } from '../../src/server/jobs/clock.ts';
import { createJobRunner } from '../../src/server/jobs/runner.ts';
import { createTestApi, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, HEAT_B, seedFixture } from './helpers/fixtures.ts';

const VALUES = `query ($i: AlarmValuesInput!) { alarmValues(input: $i) { periodStart periodEnd value } }`;

let database: Database;
let api: TestApi;
let fx: Fixture;
const ids = { alice: 0, previous: 0, bob: 0, dave: 0 };
const daveUser = { id: 0, email: 'dave@test.test' };
const tokens = { alice: '', previous: '' };
const clock = manualClock(new Date('2025-03-04T06:00:00Z'));
const runner = () => createJobRunner({ db: database.db, logger: pino({ level: 'silent' }), clock });

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  api = await createTestApi(database);
  api.services.clock = clock;
  tokens.alice = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 300)).token;
  tokens.previous = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.previous, 300)).token;
  const rows = await database.db.select().from(tenancies);
  ids.alice = rows.find((t) => t.tenancyId === 'T-A-2025')!.id;
  ids.previous = rows.find((t) => t.tenancyId === 'T-A-2024')!.id;
  ids.bob = rows.find((t) => t.tenancyId === 'T-B-2024')!.id;
  await database.db.update(tenancies).set({ end: '2025-03-14' }).where(eq(tenancies.id, ids.bob));
  const [dave] = await database.db
    .insert(users)
    .values({ email: daveUser.email, name: 'Dave', passwordHash: 'x' })
    .returning();
  daveUser.id = dave!.id;
  const [t] = await database.db
    .insert(tenancies)
    .values({ apartmentId: fx.apartmentB, tenancyId: 'T-B-2025', tenant: 'Dave D.', start: '2025-03-15' })
    .returning();
  ids.dave = t!.id;
  await database.db.insert(tenancyMembers).values({ tenancyId: ids.dave, userId: dave!.id });
});
afterAll(async () => {
  await database?.close();
});

async function hint(
  who: keyof typeof tokens,
  tenancy: number,
  input: { type: string; quantity: string; frequency: string; count: number },
) {
  const r = await gql<{ alarmValues: { periodStart: string; value: number | null }[] }>(
    api.tenant,
    VALUES,
    { i: { tenancyId: String(tenancy), ...input } },
    tokens[who],
  );
  expect(r.errors).toBeUndefined();
  return r.data!.alarmValues.map((p) => [p.periodStart, p.value !== null] as const);
}

describe('alarmValues', () => {
  it("the successor sees no day before their move-in, and no week that holds the predecessor's days", async () => {
    clock.set(new Date('2025-03-04T06:00:00Z'));
    const heat = { type: 'THRESHOLD', quantity: 'heat-energy' };
    expect(await hint('alice', ids.alice, { ...heat, frequency: 'DAY', count: 6 })).toEqual([
      ['2025-02-26', false],
      ['2025-02-27', false],
      ['2025-02-28', false],
      ['2025-03-01', true],
      ['2025-03-02', true],
      ['2025-03-03', true],
    ]);
    // The week of 24 February holds 24–28 February (the predecessor's) and 1–2 March.
    expect(await hint('alice', ids.alice, { ...heat, frequency: 'WEEK', count: 2 })).toEqual([
      ['2025-02-17', false],
      ['2025-02-24', false],
    ]);
  });

  it('the predecessor sees their own days and none of the successor’s, consumption and indoor climate', async () => {
    clock.set(new Date('2025-03-04T06:00:00Z'));
    const days = [
      ['2025-02-26', true],
      ['2025-02-27', true],
      ['2025-02-28', true],
      ['2025-03-01', false],
      ['2025-03-02', false],
      ['2025-03-03', false],
    ];
    const heat = { type: 'THRESHOLD', quantity: 'heat-energy', frequency: 'DAY', count: 6 };
    expect(await hint('previous', ids.previous, heat)).toEqual(days);
    const climate = { type: 'INDOOR_CLIMATE', quantity: 'indoor-temperature', frequency: 'DAY', count: 6 };
    expect(await hint('previous', ids.previous, climate)).toEqual(days);
  });
});

describe('the alarm evaluator', () => {
  it('an ended tenancy with enabled alarms: fires on its own last day, never on the successor’s days', async () => {
    const [heat, climate] = await database.db
      .insert(alarms)
      .values([
        {
          userId: fx.users.previous.id,
          tenancyId: ids.previous,
          type: 'threshold',
          quantity: 'heat-energy',
          frequency: 'day',
          threshold: '0',
        },
        {
          userId: fx.users.previous.id,
          tenancyId: ids.previous,
          type: 'indoor_climate',
          quantity: 'indoor-temperature',
          frequency: 'day',
          maximum: '10',
        },
      ])
      .returning();
    const alarmIds = [heat!.id, climate!.id];
    const evaluationsOf = async (day: string) =>
      (await database.db.select().from(alarmEvaluations).where(eq(alarmEvaluations.periodStart, day)))
        .filter((e) => alarmIds.includes(e.alarmId))
        .map((e) => [e.alarmId, e.state]);
    // 28 February, the tenancy's last day: both fire (the alarms work).
    clock.set(new Date('2025-03-01T06:00:00Z'));
    await runner().tick();
    expect((await evaluationsOf('2025-02-28')).sort()).toEqual([
      [heat!.id, 'fired'],
      [climate!.id, 'fired'],
    ]);
    // 1 and 2 March are the successor's: nothing is evaluated, no notification, no mail.
    for (const now of ['2025-03-02T06:00:00Z', '2025-03-03T06:00:00Z']) {
      clock.set(new Date(now));
      await runner().tick();
      clock.advance(120_000);
      await runner().drain();
    }
    expect(await evaluationsOf('2025-03-01')).toEqual([]);
    expect(await evaluationsOf('2025-03-02')).toEqual([]);
    const notes = await database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, fx.users.previous.id));
    expect(notes.filter((n) => n.periodStart >= '2025-03-01')).toEqual([]);
    expect(notes.filter((n) => n.periodStart === '2025-02-28')).toHaveLength(2);
  });

  it("the successor's increase alarm is not judged against the predecessor's week", async () => {
    const [cmp] = await database.db
      .insert(alarms)
      .values({
        userId: fx.users.alice.id,
        tenancyId: ids.alice,
        type: 'comparison',
        quantity: 'heat-energy',
        frequency: 'week',
        threshold: '0',
      })
      .returning();
    // The week of 3 March is Alice's; the week before holds five of the predecessor's days. After the grace
    // time the comparison is recorded as unknown, with no reference taken from the predecessor's use.
    clock.set(new Date('2025-03-14T06:00:00Z'));
    await runner().tick();
    const [evaluation] = await database.db
      .select()
      .from(alarmEvaluations)
      .where(and(eq(alarmEvaluations.alarmId, cmp!.id), eq(alarmEvaluations.periodStart, '2025-03-03')));
    expect(evaluation).toMatchObject({ state: 'unknown', reference: null, reason: 'missing_data' });
  });
});

describe('the monthly consumption report', () => {
  it('a move on 15 March: each tenant gets the totals of their own days only', async () => {
    clock.set(new Date('2025-04-02T06:00:00Z'));
    await runner().tick();
    const totalsOf = async (userId: number, tenancyId: number) => {
      const [note] = await database.db
        .select()
        .from(notifications)
        .where(
          and(
            eq(notifications.userId, userId),
            eq(notifications.tenancyId, tenancyId),
            eq(notifications.kind, 'consumption_report'),
            eq(notifications.periodStart, '2025-03-01'),
          ),
        );
      return (note?.details as { totals: { quantity: string; value: string }[] } | undefined)?.totals.map(
        (t) => [t.quantity, Number(t.value)],
      );
    };
    // Bob: 1–14 March, 14 days of 24 hours at 3 kWh. Dave: 15–31 March, with the 23-hour DST day.
    expect(await totalsOf(fx.users.bob.id, ids.bob)).toEqual([['heat-energy', 14 * 24 * HEAT_B]]);
    expect(await totalsOf(daveUser.id, ids.dave)).toEqual([['heat-energy', (17 * 24 - 1) * HEAT_B]]);
  });
});

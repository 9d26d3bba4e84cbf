import { inArray, sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { alarms as alarmTable, jobs } from '../../src/server/db/schema.ts';
import { manualClock } from '../../src/server/jobs/clock.ts';
import { createJobRunner } from '../../src/server/jobs/runner.ts';
import { scheduleDueJobs } from '../../src/server/jobs/schedule.ts';
import { ALARM_FIELDS, type AlarmData, CREATE, heatDay, ONE, setUpAlarmApi } from './helpers/alarms.ts';
import { errorCode, gql } from './helpers/api.ts';

const UPDATE = `mutation ($t: ID!, $id: ID!, $a: AlarmInput!) { updateAlarm(tenancyId: $t, id: $id, alarm: $a) { ${ALARM_FIELDS} } }`;
const DELETE = `mutation ($t: ID!, $id: ID!) { deleteAlarm(tenancyId: $t, id: $id) { ok } }`;
const LIST = `query ($t: ID!) { alarms(tenancyId: $t) { ${ALARM_FIELDS} } }`;
const VALUES = `query ($i: AlarmValuesInput!) { alarmValues(input: $i) { periodStart periodEnd value } }`;

const s = setUpAlarmApi();
const { create, get } = s;
const clock = manualClock(new Date('2025-03-31T06:00:00Z'));

describe('alarm CRUD and access', () => {
  it('creates, reads, lists, updates and deletes an own alarm', async () => {
    const created = await create('bob', s.tenancyB, heatDay(100));
    expect(created).toMatchObject({
      type: 'THRESHOLD',
      frequency: 'DAY',
      threshold: 100,
      status: 'OK',
      history: [],
    });
    const list = await gql<{ alarms: AlarmData[] }>(s.api.tenant, LIST, { t: s.tenancyB }, s.tokens.bob);
    expect(list.data!.alarms.map((a) => a.id)).toContain(created.id);
    const updated = await gql<{ updateAlarm: AlarmData }>(
      s.api.tenant,
      UPDATE,
      { t: s.tenancyB, id: created.id, a: { ...heatDay(50), enabled: false } },
      s.tokens.bob,
    );
    expect(updated.data!.updateAlarm).toMatchObject({ threshold: 50, status: 'OFF' });
    const deleted = await gql(s.api.tenant, DELETE, { t: s.tenancyB, id: created.id }, s.tokens.bob);
    expect(deleted.data).toEqual({ deleteAlarm: { ok: true } });
    expect(errorCode(await gql(s.api.tenant, ONE, { t: s.tenancyB, id: created.id }, s.tokens.bob))).toBe(
      'NOT_FOUND',
    );
  });

  it("refuses another tenant's tenancy with FORBIDDEN; unknown and foreign alarm ids get one NOT_FOUND", async () => {
    const bobs = await create('bob', s.tenancyB, heatDay(100));
    // Alice is not a member of tenancy B: FORBIDDEN, as tenantGraph.
    expect(errorCode(await gql(s.api.tenant, LIST, { t: s.tenancyB }, s.tokens.alice))).toBe('FORBIDDEN');
    expect(errorCode(await gql(s.api.tenant, ONE, { t: s.tenancyB, id: bobs.id }, s.tokens.alice))).toBe(
      'FORBIDDEN',
    );
    // On her own tenancy, Bob's alarm id, an unknown id and a malformed id get the very same answer.
    const answers = await Promise.all(
      [bobs.id, '999999', 'x'].map((id) => gql(s.api.tenant, ONE, { t: s.tenancyA, id }, s.tokens.alice)),
    );
    for (const r of answers) {
      expect(errorCode(r)).toBe('NOT_FOUND');
      expect(r.errors![0]!.message).toBe(answers[1]!.errors![0]!.message);
    }
    expect(
      errorCode(
        await gql(s.api.tenant, UPDATE, { t: s.tenancyA, id: bobs.id, a: heatDay(1) }, s.tokens.alice),
      ),
    ).toBe('NOT_FOUND');
    expect(errorCode(await gql(s.api.tenant, DELETE, { t: s.tenancyA, id: bobs.id }, s.tokens.alice))).toBe(
      'NOT_FOUND',
    );
    expect(errorCode(await gql(s.api.tenant, CREATE, { t: s.tenancyB, a: heatDay(1) }, s.tokens.alice))).toBe(
      'FORBIDDEN',
    );
    expect(errorCode(await gql(s.api.tenant, LIST, { t: s.tenancyB }))).toBe('UNAUTHENTICATED');
    // Nothing changed.
    expect((await get('bob', s.tenancyB, bobs.id)).threshold).toBe(100);
    await gql(s.api.tenant, DELETE, { t: s.tenancyB, id: bobs.id }, s.tokens.bob);
  });

  it('refuses bad input with BAD_USER_INPUT and writes nothing', async () => {
    const before = await s.database.db.select().from(alarmTable);
    const bad: Record<string, unknown>[] = [
      { ...heatDay(-1) },
      { type: 'THRESHOLD', quantity: 'heat-energy', frequency: 'DAY' },
      { type: 'ZERO_CONSUMPTION', quantity: 'heat-energy', frequency: 'DAY', threshold: 5 },
      { type: 'INDOOR_CLIMATE', quantity: 'indoor-temperature', frequency: 'DAY' },
      { type: 'INDOOR_CLIMATE', quantity: 'indoor-temperature', frequency: 'DAY', minimum: 24, maximum: 24 },
      { type: 'INDOOR_CLIMATE', quantity: 'heat-energy', frequency: 'DAY', minimum: 18 },
      { type: 'THRESHOLD', quantity: 'steam', frequency: 'DAY', threshold: 1 },
      { type: 'ZERO_CONSUMPTION', quantity: 'heat-energy', frequency: 'DAY', leakRule: true },
      // The fixture's apartments have no cold-water meter: not one of the tenancy's own quantities.
      { type: 'THRESHOLD', quantity: 'cold-water-volume', frequency: 'DAY', threshold: 1 },
    ];
    for (const a of bad) {
      const r = await gql(s.api.tenant, CREATE, { t: s.tenancyA, a }, s.tokens.alice);
      expect(errorCode(r), JSON.stringify(a)).toBe('BAD_USER_INPUT');
    }
    expect(await s.database.db.select().from(alarmTable)).toEqual(before);
  });

  it('refuses limits outside their range (humidity over 100 %, absurd amounts), naming the range', async () => {
    const before = await s.database.db.select().from(alarmTable);
    const bad: [Record<string, unknown>, string][] = [
      [
        { type: 'INDOOR_CLIMATE', quantity: 'indoor-relative-humidity', frequency: 'DAY', maximum: 150 },
        'must be from 0 to 100',
      ],
      [
        { type: 'INDOOR_CLIMATE', quantity: 'indoor-relative-humidity', frequency: 'DAY', minimum: -5 },
        'must be from 0 to 100',
      ],
      [
        { type: 'INDOOR_CLIMATE', quantity: 'indoor-temperature', frequency: 'DAY', maximum: 500 },
        'must be from -30 to 60',
      ],
      [{ ...heatDay(5e8) }, 'must be from 0 to 1000000'],
      [
        { type: 'COMPARISON', quantity: 'heat-energy', frequency: 'DAY', threshold: 20_000 },
        'must be from 0 to 10000',
      ],
    ];
    for (const [a, message] of bad) {
      const r = await gql(s.api.tenant, CREATE, { t: s.tenancyA, a }, s.tokens.alice);
      expect(errorCode(r), JSON.stringify(a)).toBe('BAD_USER_INPUT');
      expect(r.errors?.[0]?.message, JSON.stringify(a)).toContain(message);
    }
    expect(await s.database.db.select().from(alarmTable)).toEqual(before);
  });

  it("hints with the last complete period's value by the injected clock, null for a day without data", async () => {
    s.api.services.clock = clock;
    const hint = async (frequency: string, count = 1) => {
      const r = await gql<{ alarmValues: { periodStart: string; value: number | null }[] }>(
        s.api.tenant,
        VALUES,
        { i: { tenancyId: s.tenancyB, type: 'THRESHOLD', quantity: 'heat-energy', frequency, count } },
        s.tokens.bob,
      );
      expect(r.errors).toBeUndefined();
      return r.data!.alarmValues;
    };
    try {
      // Bob's heat is 3 kWh every hour. At 08:00 Copenhagen on 31 March the latest complete day is the 23-hour
      // DST day 30 March: 69 kWh.
      clock.set(new Date('2025-03-31T06:00:00Z'));
      expect(await hint('DAY')).toEqual([{ periodStart: '2025-03-30', periodEnd: '2025-03-31', value: 69 }]);
      // Move time a day on: 31 March (24 hours) is now the latest complete day.
      clock.advance(86_400_000);
      expect(await hint('DAY', 2)).toEqual([
        { periodStart: '2025-03-30', periodEnd: '2025-03-31', value: 69 },
        { periodStart: '2025-03-31', periodEnd: '2025-04-01', value: 72 },
      ]);
      // Past the fixture's data (it ends 6 April): the latest day has none, so the hint is null, never 0.
      clock.set(new Date('2025-04-20T06:00:00Z'));
      expect(await hint('DAY')).toEqual([
        { periodStart: '2025-04-19', periodEnd: '2025-04-20', value: null },
      ]);
    } finally {
      s.api.services.clock = undefined;
    }
  });
});

describe('a new alarm is evaluated without waiting for the schedule', () => {
  it("queues its latest complete period under the schedule's key; a disabled one queues nothing", async () => {
    s.api.services.clock = clock;
    try {
      clock.set(new Date('2025-03-31T06:00:00Z'));
      const on = await create('bob', s.tenancyB, heatDay(10));
      const off = await create('bob', s.tenancyB, { ...heatDay(10), enabled: false });
      const queued = await s.database.db
        .select({ key: jobs.key, runAt: jobs.runAt, status: jobs.status })
        .from(jobs)
        .where(
          inArray(
            jobs.key,
            [on.id, off.id].map((id) => `evaluate-alarm:alarm:${id}:2025-03-30`),
          ),
        );
      expect(queued).toEqual([
        { key: `evaluate-alarm:alarm:${on.id}:2025-03-30`, runAt: clock.now(), status: 'pending' },
      ]);
      // The worker's next poll evaluates it: no schedule run is needed (drain, not tick). Bob's heat on the
      // 23-hour 30 March is 69 kWh, above 10.
      await createJobRunner({ db: s.database.db, logger: pino({ level: 'silent' }), clock }).drain();
      expect((await get('bob', s.tenancyB, on.id)).lastFired).toMatchObject({
        periodStart: '2025-03-30',
        value: 69,
      });
      expect((await get('bob', s.tenancyB, off.id)).history).toEqual([]);
      // The minute's schedule then finds that period queued and adds no second evaluation of it.
      await scheduleDueJobs(s.database.db, clock.now());
      const keys = await s.database.db
        .select({ key: jobs.key })
        .from(jobs)
        .where(sql`${jobs.payload}->>'alarmId' = ${on.id}`);
      expect(keys).toEqual([{ key: `evaluate-alarm:alarm:${on.id}:2025-03-30` }]);
    } finally {
      s.api.services.clock = undefined;
    }
  });
});

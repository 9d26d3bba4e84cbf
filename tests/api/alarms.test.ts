import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { alarms as alarmTable, tenancies } from '../../src/server/db/schema.ts';
import { manualClock } from '../../src/server/jobs/clock.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { type Fixture, seedFixture } from './helpers/fixtures.ts';

const ALARM_FIELDS = `id tenancyId type quantity frequency threshold minimum maximum leakRule enabled status
  lastFired { periodStart state value reference reason } history { periodStart state value reference reason }`;
const CREATE = `mutation ($t: ID!, $a: AlarmInput!) { createAlarm(tenancyId: $t, alarm: $a) { ${ALARM_FIELDS} } }`;
const UPDATE = `mutation ($t: ID!, $id: ID!, $a: AlarmInput!) { updateAlarm(tenancyId: $t, id: $id, alarm: $a) { ${ALARM_FIELDS} } }`;
const DELETE = `mutation ($t: ID!, $id: ID!) { deleteAlarm(tenancyId: $t, id: $id) { ok } }`;
const LIST = `query ($t: ID!) { alarms(tenancyId: $t) { ${ALARM_FIELDS} } }`;
const ONE = `query ($t: ID!, $id: ID!) { alarm(tenancyId: $t, id: $id) { ${ALARM_FIELDS} } }`;
const VALUES = `query ($i: AlarmValuesInput!) { alarmValues(input: $i) { periodStart periodEnd value } }`;

interface AlarmData {
  id: string;
  status: string;
  threshold: number | null;
  lastFired: { periodStart: string; value: number; reference: number; reason: string } | null;
  history: { periodStart: string; state: string; value: number | null; reason: string | null }[];
}

let database: Database;
let api: TestApi;
let fx: Fixture;
let tenancyA: string;
let tenancyB: string;
const tokens = { alice: '', bob: '' };
const clock = manualClock(new Date('2025-03-31T06:00:00Z'));

beforeAll(async () => {
  database = await freshDatabase();
  fx = await seedFixture(database.db);
  api = await createTestApi(database);
  for (const name of ['alice', 'bob'] as const)
    tokens[name] = (await signAccessToken('tenant', api.services.keys.tenant, fx.users[name], 300)).token;
  const rows = await database.db.select().from(tenancies);
  tenancyA = String(rows.find((t) => t.tenancyId === 'T-A-2025')!.id);
  tenancyB = String(rows.find((t) => t.tenancyId === 'T-B-2024')!.id);
});
afterAll(async () => {
  await database?.close();
});

const heatDay = (threshold: number, type = 'THRESHOLD') => ({
  type,
  quantity: 'heat-energy',
  frequency: 'DAY',
  threshold,
});

async function create(who: keyof typeof tokens, tenancy: string, alarm: Record<string, unknown>) {
  const r = await gql<{ createAlarm: AlarmData }>(api.tenant, CREATE, { t: tenancy, a: alarm }, tokens[who]);
  expect(r.errors).toBeUndefined();
  return r.data!.createAlarm;
}

async function get(who: keyof typeof tokens, tenancy: string, id: string) {
  const r = await gql<{ alarm: AlarmData }>(api.tenant, ONE, { t: tenancy, id }, tokens[who]);
  expect(r.errors).toBeUndefined();
  return r.data!.alarm;
}

describe('alarm CRUD and access', () => {
  it('creates, reads, lists, updates and deletes an own alarm', async () => {
    const created = await create('bob', tenancyB, heatDay(100));
    expect(created).toMatchObject({
      type: 'THRESHOLD',
      frequency: 'DAY',
      threshold: 100,
      status: 'OK',
      history: [],
    });
    const list = await gql<{ alarms: AlarmData[] }>(api.tenant, LIST, { t: tenancyB }, tokens.bob);
    expect(list.data!.alarms.map((a) => a.id)).toContain(created.id);
    const updated = await gql<{ updateAlarm: AlarmData }>(
      api.tenant,
      UPDATE,
      { t: tenancyB, id: created.id, a: { ...heatDay(50), enabled: false } },
      tokens.bob,
    );
    expect(updated.data!.updateAlarm).toMatchObject({ threshold: 50, status: 'OFF' });
    const deleted = await gql(api.tenant, DELETE, { t: tenancyB, id: created.id }, tokens.bob);
    expect(deleted.data).toEqual({ deleteAlarm: { ok: true } });
    expect(errorCode(await gql(api.tenant, ONE, { t: tenancyB, id: created.id }, tokens.bob))).toBe(
      'NOT_FOUND',
    );
  });

  it("refuses another tenant's tenancy with FORBIDDEN; unknown and foreign alarm ids get one NOT_FOUND", async () => {
    const bobs = await create('bob', tenancyB, heatDay(100));
    // Alice is not a member of tenancy B: FORBIDDEN, as tenantGraph.
    expect(errorCode(await gql(api.tenant, LIST, { t: tenancyB }, tokens.alice))).toBe('FORBIDDEN');
    expect(errorCode(await gql(api.tenant, ONE, { t: tenancyB, id: bobs.id }, tokens.alice))).toBe(
      'FORBIDDEN',
    );
    // On her own tenancy, Bob's alarm id, an unknown id and a malformed id get the very same answer.
    const answers = await Promise.all(
      [bobs.id, '999999', 'x'].map((id) => gql(api.tenant, ONE, { t: tenancyA, id }, tokens.alice)),
    );
    for (const r of answers) {
      expect(errorCode(r)).toBe('NOT_FOUND');
      expect(r.errors![0]!.message).toBe(answers[1]!.errors![0]!.message);
    }
    expect(
      errorCode(await gql(api.tenant, UPDATE, { t: tenancyA, id: bobs.id, a: heatDay(1) }, tokens.alice)),
    ).toBe('NOT_FOUND');
    expect(errorCode(await gql(api.tenant, DELETE, { t: tenancyA, id: bobs.id }, tokens.alice))).toBe(
      'NOT_FOUND',
    );
    expect(errorCode(await gql(api.tenant, CREATE, { t: tenancyB, a: heatDay(1) }, tokens.alice))).toBe(
      'FORBIDDEN',
    );
    expect(errorCode(await gql(api.tenant, LIST, { t: tenancyB }))).toBe('UNAUTHENTICATED');
    // Nothing changed.
    expect((await get('bob', tenancyB, bobs.id)).threshold).toBe(100);
    await gql(api.tenant, DELETE, { t: tenancyB, id: bobs.id }, tokens.bob);
  });

  it('refuses bad input with BAD_USER_INPUT and writes nothing', async () => {
    const before = await database.db.select().from(alarmTable);
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
      const r = await gql(api.tenant, CREATE, { t: tenancyA, a }, tokens.alice);
      expect(errorCode(r), JSON.stringify(a)).toBe('BAD_USER_INPUT');
    }
    expect(await database.db.select().from(alarmTable)).toEqual(before);
  });

  it('refuses limits outside their range (humidity over 100 %, absurd amounts), naming the range', async () => {
    const before = await database.db.select().from(alarmTable);
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
      const r = await gql(api.tenant, CREATE, { t: tenancyA, a }, tokens.alice);
      expect(errorCode(r), JSON.stringify(a)).toBe('BAD_USER_INPUT');
      expect(r.errors?.[0]?.message, JSON.stringify(a)).toContain(message);
    }
    expect(await database.db.select().from(alarmTable)).toEqual(before);
  });

  it("hints with the last complete period's value by the injected clock, null for a day without data", async () => {
    api.services.clock = clock;
    const hint = async (frequency: string, count = 1) => {
      const r = await gql<{ alarmValues: { periodStart: string; value: number | null }[] }>(
        api.tenant,
        VALUES,
        { i: { tenancyId: tenancyB, type: 'THRESHOLD', quantity: 'heat-energy', frequency, count } },
        tokens.bob,
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
      api.services.clock = undefined;
    }
  });
});

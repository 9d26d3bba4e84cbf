/** The alarm API tests' shared setup: a fresh database with the fixture, the backends, Alice's and Bob's tokens. */
import { afterAll, beforeAll, expect } from 'vitest';
import { signAccessToken } from '../../../src/server/auth/tokens.ts';
import type { Database } from '../../../src/server/db/client.ts';
import { tenancies } from '../../../src/server/db/schema.ts';
import { createTestApi, gql, type TestApi } from './api.ts';
import { freshDatabase } from './db.ts';
import { type Fixture, seedFixture } from './fixtures.ts';

export const ALARM_FIELDS = `id tenancyId type quantity frequency threshold minimum maximum leakRule enabled status
  lastFired { periodStart state value reference reason } history { periodStart state value reference reason }`;
export const CREATE = `mutation ($t: ID!, $a: AlarmInput!) { createAlarm(tenancyId: $t, alarm: $a) { ${ALARM_FIELDS} } }`;
export const ONE = `query ($t: ID!, $id: ID!) { alarm(tenancyId: $t, id: $id) { ${ALARM_FIELDS} } }`;

export interface AlarmData {
  id: string;
  status: string;
  threshold: number | null;
  lastFired: { periodStart: string; value: number; reference: number; reason: string } | null;
  history: { periodStart: string; state: string; value: number | null; reason: string | null }[];
}

export const heatDay = (threshold: number, type = 'THRESHOLD') => ({
  type,
  quantity: 'heat-energy',
  frequency: 'DAY',
  threshold,
});

export interface AlarmSetup {
  database: Database;
  api: TestApi;
  fx: Fixture;
  tenancyA: string;
  tenancyB: string;
  tokens: { alice: string; bob: string };
  create(who: 'alice' | 'bob', tenancy: string, alarm: Record<string, unknown>): Promise<AlarmData>;
  get(who: 'alice' | 'bob', tenancy: string, id: string): Promise<AlarmData>;
}

/** Registers the file's beforeAll/afterAll; the returned object is filled in before the first test. */
export function setUpAlarmApi(): AlarmSetup {
  const s = {
    tokens: { alice: '', bob: '' },
    async create(who, tenancy, alarm) {
      const r = await gql<{ createAlarm: AlarmData }>(
        s.api.tenant,
        CREATE,
        { t: tenancy, a: alarm },
        s.tokens[who],
      );
      expect(r.errors).toBeUndefined();
      return r.data!.createAlarm;
    },
    async get(who, tenancy, id) {
      const r = await gql<{ alarm: AlarmData }>(s.api.tenant, ONE, { t: tenancy, id }, s.tokens[who]);
      expect(r.errors).toBeUndefined();
      return r.data!.alarm;
    },
  } as AlarmSetup;
  beforeAll(async () => {
    s.database = await freshDatabase();
    s.fx = await seedFixture(s.database.db);
    s.api = await createTestApi(s.database);
    for (const name of ['alice', 'bob'] as const)
      s.tokens[name] = (
        await signAccessToken('tenant', s.api.services.keys.tenant, s.fx.users[name], 300)
      ).token;
    const rows = await s.database.db.select().from(tenancies);
    s.tenancyA = String(rows.find((t) => t.tenancyId === 'T-A-2025')!.id);
    s.tenancyB = String(rows.find((t) => t.tenancyId === 'T-B-2024')!.id);
  });
  afterAll(async () => {
    await s.database?.close();
  });
  return s;
}

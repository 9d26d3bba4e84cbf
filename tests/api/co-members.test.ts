/**
 * Two members of the same tenancy: each alarm and notification operation is the caller's own. Alice's alarm and
 * notification are invisible and untouchable for Carol, a co-member of Alice's tenancy (the owner filter, not the
 * tenancy check, is what refuses her), and Carol's own calls still work, so the refusals are not a broken fixture.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken } from '../../src/server/auth/tokens.ts';
import type { Database } from '../../src/server/db/client.ts';
import { alarms, notifications, tenancies, tenancyMembers, users } from '../../src/server/db/schema.ts';
import { createTestApi, errorCode, gql, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { seedFixture } from './helpers/fixtures.ts';

const FIELDS = 'id threshold enabled';
const CREATE = `mutation ($t: ID!, $a: AlarmInput!) { createAlarm(tenancyId: $t, alarm: $a) { ${FIELDS} } }`;
const UPDATE = `mutation ($t: ID!, $id: ID!, $a: AlarmInput!) { updateAlarm(tenancyId: $t, id: $id, alarm: $a) { ${FIELDS} } }`;
const DELETE = `mutation ($t: ID!, $id: ID!) { deleteAlarm(tenancyId: $t, id: $id) { ok } }`;
const LIST = `query ($t: ID!) { alarms(tenancyId: $t) { ${FIELDS} } }`;
const ONE = `query ($t: ID!, $id: ID!) { alarm(tenancyId: $t, id: $id) { ${FIELDS} } }`;
const NOTIFICATIONS =
  'query ($t: ID!) { notifications(tenancyId: $t) { totalCount unreadCount items { id read } } }';
const NOTIFICATION = 'query ($t: ID!, $id: ID!) { notification(tenancyId: $t, id: $id) { id read } }';
const MARK = `mutation ($t: ID!, $id: ID!, $r: Boolean) { markNotificationRead(tenancyId: $t, id: $id, read: $r) { id read } }`;
const MARK_ALL = 'mutation ($t: ID!) { markAllNotificationsRead(tenancyId: $t) { ok count } }';
const ALARM = { type: 'THRESHOLD', quantity: 'heat-energy', frequency: 'DAY', threshold: 10 };

let database: Database;
let api: TestApi;
let tenancy = '';
let tenancyId = 0;
let aliceId = 0;
const tokens = { alice: '', carol: '' };
let aliceAlarm = '';
let aliceNotification = '';
let carolNotification = '';

beforeAll(async () => {
  database = await freshDatabase();
  const fx = await seedFixture(database.db);
  api = await createTestApi(database);
  const db = database.db;
  const [row] = await db.select().from(tenancies).where(eq(tenancies.tenancyId, 'T-A-2025'));
  tenancyId = row!.id;
  tenancy = String(tenancyId);
  aliceId = fx.users.alice.id;
  const [carol] = await db
    .insert(users)
    .values({ email: 'carol@test.test', name: 'Carol', passwordHash: 'x' })
    .returning();
  await db.insert(tenancyMembers).values({ tenancyId, userId: carol!.id });
  tokens.alice = (await signAccessToken('tenant', api.services.keys.tenant, fx.users.alice, 300)).token;
  tokens.carol = (
    await signAccessToken('tenant', api.services.keys.tenant, { id: carol!.id, email: carol!.email }, 300)
  ).token;
  const created = await gql<{ createAlarm: { id: string } }>(
    api.tenant,
    CREATE,
    { t: tenancy, a: ALARM },
    tokens.alice,
  );
  expect(created.errors).toBeUndefined();
  aliceAlarm = created.data!.createAlarm.id;
  const notification = (userId: number, key: string) => ({
    userId,
    tenancyId,
    kind: 'high_consumption' as const,
    quantity: 'heat-energy',
    periodStart: '2025-03-10',
    periodEnd: '2025-03-11',
    frequency: 'DAY',
    value: '12',
    reference: '10',
    key,
    createdAt: new Date('2025-03-11T06:00:00Z'),
  });
  const [a, c] = await db
    .insert(notifications)
    .values([notification(aliceId, 'co-alice'), notification(carol!.id, 'co-carol')])
    .returning();
  aliceNotification = String(a!.id);
  carolNotification = String(c!.id);
});
afterAll(async () => {
  await database?.close();
});

const as = <T>(who: keyof typeof tokens, query: string, variables: Record<string, unknown>) =>
  gql<T>(api.tenant, query, variables, tokens[who]);

describe("a co-member cannot see or change another member's alarm", () => {
  it("alarms lists only the caller's own", async () => {
    const carol = await as<{ alarms: { id: string }[] }>('carol', LIST, { t: tenancy });
    expect(carol.errors).toBeUndefined();
    expect(carol.data!.alarms).toEqual([]);
    const alice = await as<{ alarms: { id: string }[] }>('alice', LIST, { t: tenancy });
    expect(alice.data!.alarms.map((a) => a.id)).toEqual([aliceAlarm]);
  });

  it('alarm(id) is NOT_FOUND for the co-member, found for the owner', async () => {
    expect(errorCode(await as('carol', ONE, { t: tenancy, id: aliceAlarm }))).toBe('NOT_FOUND');
    const alice = await as<{ alarm: { id: string } }>('alice', ONE, { t: tenancy, id: aliceAlarm });
    expect(alice.data!.alarm.id).toBe(aliceAlarm);
  });

  it('updateAlarm is NOT_FOUND for the co-member and changes nothing', async () => {
    const r = await as('carol', UPDATE, { t: tenancy, id: aliceAlarm, a: { ...ALARM, threshold: 99 } });
    expect(errorCode(r)).toBe('NOT_FOUND');
    const [row] = await database.db
      .select()
      .from(alarms)
      .where(eq(alarms.id, Number(aliceAlarm)));
    expect(Number(row!.threshold)).toBe(10);
  });

  it('deleteAlarm is NOT_FOUND for the co-member and deletes nothing; the owner may delete it', async () => {
    expect(errorCode(await as('carol', DELETE, { t: tenancy, id: aliceAlarm }))).toBe('NOT_FOUND');
    expect(
      await database.db
        .select()
        .from(alarms)
        .where(eq(alarms.id, Number(aliceAlarm))),
    ).toHaveLength(1);
    const own = await as<{ createAlarm: { id: string } }>('carol', CREATE, { t: tenancy, a: ALARM });
    expect(own.errors).toBeUndefined();
    const carolAlarm = own.data!.createAlarm.id;
    // Carol's own alarm is hers to change, and invisible to Alice.
    expect(errorCode(await as('alice', ONE, { t: tenancy, id: carolAlarm }))).toBe('NOT_FOUND');
    const updated = await as<{ updateAlarm: { threshold: number } }>('carol', UPDATE, {
      t: tenancy,
      id: carolAlarm,
      a: { ...ALARM, threshold: 20 },
    });
    expect(updated.data!.updateAlarm.threshold).toBe(20);
    expect(await as('carol', DELETE, { t: tenancy, id: carolAlarm })).toMatchObject({
      data: { deleteAlarm: { ok: true } },
    });
  });
});

describe("a co-member cannot see or change another member's notification", () => {
  it("notifications lists only the caller's own, with their own counts", async () => {
    const carol = await as<{
      notifications: { totalCount: number; unreadCount: number; items: { id: string }[] };
    }>('carol', NOTIFICATIONS, { t: tenancy });
    expect(carol.errors).toBeUndefined();
    expect(carol.data!.notifications).toMatchObject({ totalCount: 1, unreadCount: 1 });
    expect(carol.data!.notifications.items.map((n) => n.id)).toEqual([carolNotification]);
  });

  it('notification(id) is NOT_FOUND for the co-member, found for the owner', async () => {
    expect(errorCode(await as('carol', NOTIFICATION, { t: tenancy, id: aliceNotification }))).toBe(
      'NOT_FOUND',
    );
    const alice = await as<{ notification: { id: string } }>('alice', NOTIFICATION, {
      t: tenancy,
      id: aliceNotification,
    });
    expect(alice.data!.notification.id).toBe(aliceNotification);
  });

  it('markNotificationRead is NOT_FOUND for the co-member and leaves it unread', async () => {
    expect(errorCode(await as('carol', MARK, { t: tenancy, id: aliceNotification, r: true }))).toBe(
      'NOT_FOUND',
    );
    const [row] = await database.db
      .select()
      .from(notifications)
      .where(eq(notifications.id, Number(aliceNotification)));
    expect(row!.readAt).toBeNull();
  });

  it("markAllNotificationsRead reads only the caller's own", async () => {
    const r = await as<{ markAllNotificationsRead: { count: number } }>('carol', MARK_ALL, { t: tenancy });
    expect(r.data!.markAllNotificationsRead.count).toBe(1);
    const unread = await database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.tenancyId, tenancyId), eq(notifications.userId, aliceId)));
    expect(unread.map((n) => n.readAt)).toEqual([null]);
  });
});

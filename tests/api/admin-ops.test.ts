/**
 * The console's tenancy, invitation, data-quality and API-key calls (issue 21): the role matrix of every call ×
 * {organisation admin, manager of this property (P1), manager of another (P2), another organisation's admin,
 * tenant, anonymous}, checked on the server; then the invitation flow against a real SMTP server: a bulk upload
 * with one bad address and one without, its delivery report, resend, revoke and activation.
 */

import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkActivationCode, redeemActivationCode } from '../../src/server/account/activation.ts';
import { issueTokens } from '../../src/server/auth/login.ts';
import type { Database } from '../../src/server/db/client.ts';
import {
  apartments,
  auditLog,
  dataIssues,
  measurementPoints,
  meters,
  mqttUnmatched,
  users,
} from '../../src/server/db/schema.ts';
import { recordKeyActivity } from '../../src/server/ingest/keyActivity.ts';
import { receive } from '../../src/server/mqtt/inbox.ts';
import { reportFeed } from '../../src/server/mqtt/status.ts';
import { call, codeOf, Q } from './helpers/accountsApi.ts';
import { PASSWORD } from './helpers/accountsFixture.ts';
import { type AdminFixture, seedAdminFixture } from './helpers/adminFixture.ts';
import { createTestApi, type TestApi } from './helpers/api.ts';
import { freshDatabase } from './helpers/db.ts';
import { startTestSmtp, type TestSmtp } from './helpers/smtp.ts';

const O = {
  flats: `query ($p: ID!) { tenancyApartments(propertyId: $p) { id tenancies { id reference end } } }`,
  tenancy: `query ($id: ID!) { tenancy(id: $id) { id reference } }`,
  grace: `{ moveOutGraceMonths }`,
  setGrace: `mutation ($m: Int!) { setMoveOutGraceMonths(months: $m) }`,
  moveOut: `mutation ($i: MoveOutInput!) { moveOut(input: $i) { id end } }`,
  moveIn: `mutation ($i: MoveInInput!) { moveIn(input: $i) { id } }`,
  invitations: `query ($p: ID, $b: ID) { invitations(propertyId: $p, batchId: $b) { batchId sent queued failed noAddress activated revoked expired invitations { id email status error line activationCode } } }`,
  invite: `mutation ($t: ID!, $e: String) { inviteTenant(tenancyId: $t, email: $e) { id status activationCode } }`,
  bulk: `mutation ($csv: String!) { bulkInvite(csv: $csv) { problems { line message } report { batchId sent queued failed noAddress activated invitations { id email status error line activationCode } } } }`,
  resend: `mutation ($id: ID!, $e: String) { resendInvitation(id: $id, email: $e) { id email status error } }`,
  revoke: `mutation ($id: ID!) { revokeInvitation(id: $id) { id status activationCode } }`,
  queue: `query ($f: DataIssueFilter) { dataQualityQueue(filter: $f) { issues { id kind status propertyId meterNumber reason } unknownRadioIds { radioId } } }`,
  accept: `mutation ($i: AcceptDataIssueInput!) { acceptDataIssue(input: $i) { id status resolution resolvedBy } }`,
  reject: `mutation ($id: ID!, $n: String) { rejectDataIssue(id: $id, note: $n) { id status } }`,
  keys: `{ apiKeys { id name prefix propertyIds lastUsedAt revokedAt } }`,
  createKey: `mutation ($n: String!, $p: [ID!]!) { createApiKey(name: $n, propertyIds: $p) { key apiKey { id prefix propertyIds } } }`,
  revokeKey: `mutation ($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`,
} as const;

type Who = 'orgAdmin' | 'managerHere' | 'managerElsewhere' | 'otherOrgAdmin' | 'tenant' | 'anonymous';
const WHO: Who[] = ['orgAdmin', 'managerHere', 'managerElsewhere', 'otherOrgAdmin', 'tenant', 'anonymous'];
const unauth = { tenant: 'UNAUTHENTICATED', anonymous: 'UNAUTHENTICATED' };
/** P1's organisation admin and manager get an answer; the others are refused. */
const p1Only = {
  orgAdmin: undefined,
  managerHere: undefined,
  managerElsewhere: 'FORBIDDEN',
  otherOrgAdmin: 'FORBIDDEN',
  ...unauth,
};
const everyOperator = {
  orgAdmin: undefined,
  managerHere: undefined,
  managerElsewhere: undefined,
  otherOrgAdmin: undefined,
  ...unauth,
};

let database: Database;
let api: TestApi;
let fx: AdminFixture;
let smtp: TestSmtp;
const tokens = {} as Record<Who, string | null>;
/** Per caller: a flat to move into, an open data issue, an invitation and an API key of P1. */
const mine = {} as Record<Who, { flat: number; issue: number; invitation: string; key: string }>;

beforeAll(async () => {
  smtp = await startTestSmtp();
  database = await freshDatabase();
  fx = await seedAdminFixture(database.db);
  api = await createTestApi(database, { SMTP_URL: smtp.url });
  const sign = async (u: { id: number; email: string }) =>
    (await issueTokens(database.db, api.services.config, 'admin', api.services.keys.admin, u)).token;
  tokens.orgAdmin = await sign(fx.ops.admin1);
  tokens.managerHere = await sign(fx.ops.manager1);
  tokens.managerElsewhere = await sign(fx.ops.manager2);
  tokens.otherOrgAdmin = await sign(fx.ops.admin2);
  const tenant = await call<{ tokenAuth: { token: string } }>(api.account, Q.tokenAuth, {
    email: fx.tenant.email,
    password: PASSWORD,
  });
  tokens.tenant = tenant.data!.tokenAuth.token;
  tokens.anonymous = null;
  const flat = (n: number) => ({
    propertyId: fx.p1,
    uniqueId: `U-P1-X${n}`,
    apartment: `${n}. th`,
    address: `Street P1, ${n}. th`,
    zipcode: '8000',
    city: 'Aarhus C',
    areaM2: '60',
    rooms: 2,
  });
  const flats = await database.db
    .insert(apartments)
    .values([flat(1), flat(2)])
    .returning();
  const [point] = await database.db
    .insert(measurementPoints)
    .values({
      propertyId: fx.p1,
      apartmentId: flats[0]!.id,
      quantity: 'heat-energy',
      unit: 'kilo-watt-hour',
      name: 'heat',
      readingKind: 'register',
    })
    .returning();
  // One meter per caller: a meter has one open finding of a kind at a time.
  const issue = async (i: number) => {
    const [meter] = await database.db
      .insert(meters)
      .values({
        measurementPointId: point!.id,
        number: `P1-HEAT-${i}`,
        legacyKind: 'energy',
        installedAt: new Date('2024-01-01'),
      })
      .returning();
    const [row] = await database.db
      .insert(dataIssues)
      .values({
        kind: 'silent',
        meterId: meter!.id,
        propertyId: fx.p1,
        readingTs: new Date(),
        evidence: { reason: 'silent for 26 hours' },
        source: 'worker',
      })
      .returning();
    return row!.id;
  };
  const as0 = (who: Who, query: string, variables: Record<string, unknown>) =>
    call<Record<string, never>>(api.admin, query, variables, { token: tokens.orgAdmin ?? tokens[who] });
  for (const [i, who] of WHO.entries()) {
    const inv = await as0(who, O.invite, { t: String(fx.tenancy1), e: `${who.toLowerCase()}@tenants.test` });
    const key = await as0(who, O.createKey, { n: `key of ${who}`, p: [String(fx.p1)] });
    mine[who] = {
      flat: flats[i % 2]!.id,
      issue: await issue(i),
      invitation: (inv.data!.inviteTenant as { id: string }).id,
      key: (key.data!.createApiKey as { apiKey: { id: string } }).apiKey.id,
    };
  }
  // Generous: on a loaded machine, migrating and hashing the fixture's passwords can take minutes.
}, 600_000);
afterAll(async () => {
  await database?.close();
  await smtp?.close();
});

const as = (who: Who, query: string, variables: Record<string, unknown> = {}) =>
  call<Record<string, unknown>>(api.admin, query, variables, { token: tokens[who] });

/** The error code per caller (undefined: answered). */
async function matrix(query: string, variables: (who: Who) => Record<string, unknown>) {
  const out: Partial<Record<Who, unknown>> = {};
  for (const who of WHO) out[who] = codeOf(await as(who, query, variables(who)));
  return out;
}

describe('role matrix: tenancies', () => {
  it('tenancyApartments, tenancy: P1’s admin and manager only', async () => {
    expect(await matrix(O.flats, () => ({ p: String(fx.p1) }))).toEqual(p1Only);
    expect(await matrix(O.tenancy, () => ({ id: String(fx.tenancy1) }))).toEqual(p1Only);
    expect(codeOf(await as('orgAdmin', O.tenancy, { id: '99999' }))).toBe('FORBIDDEN');
  });

  it('moveOut and moveIn: P1’s admin and manager only', async () => {
    expect(
      await matrix(O.moveOut, () => ({ i: { tenancyId: String(fx.tenancy1), lastDay: '2099-06-30' } })),
    ).toEqual(p1Only);
    const flats = (await as('orgAdmin', O.flats, { p: String(fx.p1) })).data!.tenancyApartments as {
      tenancies: { end: string | null }[];
    }[];
    expect(flats.flatMap((f) => f.tenancies.map((t) => t.end))).toEqual(['2099-06-30']);
    let n = 0;
    expect(
      await matrix(O.moveIn, (who) => ({
        i: { apartmentId: String(mine[who].flat), reference: `T-NEW-${++n}`, firstDay: '2099-07-01' },
      })),
    ).toEqual(p1Only);
  });

  it('moveOutGraceMonths: every operator reads their organisation’s; only organisation admins set it', async () => {
    expect(await matrix(O.grace, () => ({}))).toEqual(everyOperator);
    expect(await matrix(O.setGrace, () => ({ m: 6 }))).toEqual({
      orgAdmin: undefined,
      managerHere: 'ORG_ADMIN_ONLY',
      managerElsewhere: 'ORG_ADMIN_ONLY',
      otherOrgAdmin: undefined,
      ...unauth,
    });
  });
});

describe('role matrix: invitations', () => {
  it('invitations(P1), inviteTenant, resend, revoke: P1’s admin and manager only', async () => {
    expect(await matrix(O.invitations, () => ({ p: String(fx.p1) }))).toEqual(p1Only);
    expect(await matrix(O.invite, () => ({ t: String(fx.tenancy1) }))).toEqual(p1Only);
    expect(await matrix(O.resend, (who) => ({ id: mine[who].invitation }))).toEqual(p1Only);
    expect(await matrix(O.revoke, (who) => ({ id: mine[who].invitation }))).toEqual(p1Only);
  });

  it('invitations without a filter: each sees only their properties’', async () => {
    const count = async (who: Who) =>
      ((await as(who, O.invitations)).data!.invitations as { invitations: unknown[] }).invitations.length;
    expect(await count('orgAdmin')).toBeGreaterThan(0);
    expect(await count('managerHere')).toBe(await count('orgAdmin'));
    expect(await count('managerElsewhere')).toBe(0);
    expect(await count('otherOrgAdmin')).toBe(0);
  });

  it('bulkInvite: a tenancy outside the caller’s properties refuses the file, creating nothing', async () => {
    const csv = `tenancy,email\nT-P1-1,bulk@tenants.test\n`;
    for (const who of WHO) {
      const r = await as(who, O.bulk, { csv });
      const result = r.data?.bulkInvite as { report: unknown; problems: { line: number }[] } | undefined;
      if (who === 'tenant' || who === 'anonymous') expect(codeOf(r)).toBe('UNAUTHENTICATED');
      else if (who === 'orgAdmin' || who === 'managerHere') expect(result!.report).not.toBeNull();
      else
        expect(result).toEqual({
          report: null,
          problems: [{ line: 2, message: 'no tenancy T-P1-1 in your properties' }],
        });
    }
  });
});

describe('role matrix: data quality and API keys', () => {
  it('dataQualityQueue: every operator, each their own properties’ issues; unknown radio ids for admins', async () => {
    expect(await matrix(O.queue, () => ({}))).toEqual(everyOperator);
    expect(await matrix(O.queue, () => ({ f: { propertyId: String(fx.p1) } }))).toEqual(p1Only);
    const ids = async (who: Who) =>
      ((await as(who, O.queue)).data!.dataQualityQueue as { issues: { propertyId: string }[] }).issues.map(
        (i) => i.propertyId,
      );
    expect(new Set(await ids('managerHere'))).toEqual(new Set([String(fx.p1)]));
    expect(await ids('managerElsewhere')).toEqual([]);
    expect(await ids('otherOrgAdmin')).toEqual([]);
  });

  /** A hot-water meter on a point of its own in the property. */
  const hotWaterMeter = async (propertyId: number, number: string, radioId: string | null = null) => {
    const [p] = await database.db
      .insert(measurementPoints)
      .values({
        propertyId,
        quantity: 'hot-water-volume',
        unit: 'cubic-meter',
        name: 'hw',
        readingKind: 'register',
      })
      .returning();
    await database.db.insert(meters).values({
      measurementPointId: p!.id,
      number,
      legacyKind: 'water',
      installedAt: new Date('2024-01-01'),
      radioId,
    });
  };

  it("untakenTelegrams: telegrams of the caller's own meters that gave no reading, by the meter's property", async () => {
    const point = hotWaterMeter;
    await point(fx.p1, 'HW-P1', 'AA000001');
    await point(fx.p3, 'HW-P3', 'AA000003');
    const unmatched = (radioId: string, reason: string) => ({
      radioId,
      reason,
      telegrams: 3,
      lastPayload: '{}',
      lastDetail: `detail of ${radioId}`,
    });
    await database.db
      .insert(mqttUnmatched)
      .values([
        unmatched('AA000001', 'no_value'),
        unmatched('AA000003', 'refused'),
        unmatched('FF000000', 'unknown_id'),
      ]);
    const seen = async (who: Who) => {
      const q = (
        await as(
          who,
          `{ dataQualityQueue { untakenTelegrams { meterNumber reason propertyId detail telegrams } unknownRadioIds { radioId } } }`,
        )
      ).data!.dataQualityQueue as {
        untakenTelegrams: { meterNumber: string }[];
        unknownRadioIds: { radioId: string }[];
      };
      return {
        untaken: q.untakenTelegrams.map((u) => u.meterNumber),
        unknown: q.unknownRadioIds.map((u) => u.radioId),
      };
    };
    const own = await as(
      'orgAdmin',
      `{ dataQualityQueue { untakenTelegrams { meterNumber reason propertyId detail telegrams } } }`,
    );
    expect((own.data!.dataQualityQueue as { untakenTelegrams: unknown[] }).untakenTelegrams).toEqual([
      {
        meterNumber: 'HW-P1',
        reason: 'no_value',
        propertyId: String(fx.p1),
        detail: 'detail of AA000001',
        telegrams: 3,
      },
    ]);
    // Two organisations and no MQTT_ORGANISATION: the unknown radio id is nobody's to see.
    expect(await seen('orgAdmin')).toEqual({ untaken: ['HW-P1'], unknown: [] });
    expect(await seen('managerHere')).toEqual({ untaken: ['HW-P1'], unknown: [] });
    expect(await seen('managerElsewhere')).toEqual({ untaken: [], unknown: [] });
    expect(await seen('otherOrgAdmin')).toEqual({ untaken: ['HW-P3'], unknown: [] });
    const config = api.services.config;
    try {
      // The feed run by P1's organisation (by id): its admin sees the id, its manager and the other admin do not.
      config.MQTT_ORGANISATION = String(fx.org1);
      expect(await seen('orgAdmin')).toEqual({ untaken: ['HW-P1'], unknown: ['FF000000'] });
      expect(await seen('managerHere')).toEqual({ untaken: ['HW-P1'], unknown: [] });
      expect(await seen('otherOrgAdmin')).toEqual({ untaken: ['HW-P3'], unknown: [] });
      // …by the other organisation (by name): the reverse.
      config.MQTT_ORGANISATION = 'Org Two';
      expect(await seen('orgAdmin')).toEqual({ untaken: ['HW-P1'], unknown: [] });
      expect(await seen('otherOrgAdmin')).toEqual({ untaken: ['HW-P3'], unknown: ['FF000000'] });
      // A setting that names no organisation shows the ids to no one.
      config.MQTT_ORGANISATION = '999999';
      expect(await seen('orgAdmin')).toEqual({ untaken: ['HW-P1'], unknown: [] });
      expect(await seen('otherOrgAdmin')).toEqual({ untaken: ['HW-P3'], unknown: [] });
    } finally {
      config.MQTT_ORGANISATION = undefined;
    }
  });

  it("mqttFeed: the feed's connection and backlog for its organisation's admins only; a silent subscriber shown as not running", async () => {
    const db = database.db;
    const since = new Date('2026-11-28T10:00:00Z');
    await reportFeed(db, {
      clientId: 'tenant-app-ingest',
      url: 'mqtt://broker.example:1883/',
      topic: 'wmbusmeters/#',
      connected: true,
      since,
      lastError: null,
      lastTelegramAt: new Date('2026-11-28T10:05:00Z'),
    });
    await receive(db, 'wmbusmeters/x', '{"id":"12345678"}');
    const feed = async (who: Who) =>
      (
        (
          await as(
            who,
            `{ dataQualityQueue { mqttFeed { subscribers { clientId url topic connected since lastError lastTelegramAt running } waiting oldestWaitingAt } } }`,
          )
        ).data!.dataQualityQueue as { mqttFeed: unknown }
      ).mqttFeed;
    const config = api.services.config;
    try {
      // Two organisations and no MQTT_ORGANISATION: nobody's feed to see.
      expect(await feed('orgAdmin')).toBeNull();
      config.MQTT_ORGANISATION = String(fx.org1);
      expect(await feed('orgAdmin')).toMatchObject({
        subscribers: [
          {
            clientId: 'tenant-app-ingest',
            url: 'mqtt://broker.example:1883/',
            topic: 'wmbusmeters/#',
            connected: true,
            since: since.toISOString(),
            lastError: null,
            lastTelegramAt: '2026-11-28T10:05:00.000Z',
            running: true,
          },
        ],
        waiting: 1,
      });
      expect(await feed('managerHere')).toBeNull();
      expect(await feed('otherOrgAdmin')).toBeNull();
      // A restarted subscriber that has stored nothing yet keeps the last telegram's time; lost connection, error.
      await reportFeed(db, {
        clientId: 'tenant-app-ingest',
        url: 'mqtt://broker.example:1883/',
        topic: 'wmbusmeters/#',
        connected: false,
        since,
        lastError: 'connect ECONNREFUSED 127.0.0.1:1883',
        lastTelegramAt: null,
      });
      // No report for 5 minutes: the subscriber is not running.
      await db.execute(sql`UPDATE mqtt_feed SET reported_at = now() - interval '5 minutes'`);
      expect(await feed('orgAdmin')).toMatchObject({
        subscribers: [
          {
            connected: false,
            lastError: 'connect ECONNREFUSED 127.0.0.1:1883',
            lastTelegramAt: '2026-11-28T10:05:00.000Z',
            running: false,
          },
        ],
        waiting: 1,
      });
      config.MQTT_ORGANISATION = 'Org Two';
      expect(await feed('orgAdmin')).toBeNull();
      expect(await feed('otherOrgAdmin')).toMatchObject({ waiting: 1 });
    } finally {
      config.MQTT_ORGANISATION = undefined;
      await db.execute(sql`DELETE FROM mqtt_inbox`);
      await db.execute(sql`DELETE FROM mqtt_feed`);
    }
  });

  it('giveRadioId: to a meter of the caller’s properties that has none, audited; nothing written otherwise', async () => {
    await hotWaterMeter(fx.p1, 'GIVE-P1');
    await hotWaterMeter(fx.p1, 'GIVE-P1-HAS', 'EE000001');
    await hotWaterMeter(fx.p2, 'GIVE-P2');
    await hotWaterMeter(fx.p3, 'GIVE-P3');
    const give = async (who: Who, radioId: string, meterNumber: string) => {
      const r = await as(
        who,
        `mutation ($r: String!, $m: String!) { giveRadioId(radioId: $r, meterNumber: $m) { radioId meterNumber } }`,
        { r: radioId, m: meterNumber },
      );
      return codeOf(r) ?? (r.data!.giveRadioId as { meterNumber: string }).meterNumber;
    };
    const radioOf = async (number: string) =>
      (await database.db.select({ r: meters.radioId }).from(meters).where(eq(meters.number, number)))[0]!.r;
    expect(await give('tenant', 'EE000002', 'GIVE-P1')).toBe('UNAUTHENTICATED');
    expect(await give('anonymous', 'EE000002', 'GIVE-P1')).toBe('UNAUTHENTICATED');
    // Another property's manager, another organisation's admin, a number nobody has: the same answer.
    expect(await give('managerElsewhere', 'EE000002', 'GIVE-P1')).toBe('METER_NOT_FOUND');
    expect(await give('otherOrgAdmin', 'EE000002', 'GIVE-P1')).toBe('METER_NOT_FOUND');
    expect(await give('orgAdmin', 'EE000002', 'NO-SUCH-METER')).toBe('METER_NOT_FOUND');
    expect(await give('orgAdmin', ' ', 'GIVE-P1')).toBe('BAD_USER_INPUT');
    expect(await give('orgAdmin', 'EE000001', 'GIVE-P1')).toBe('RADIO_ID_TAKEN');
    expect(await radioOf('GIVE-P1')).toBeNull();
    // P1's manager gives it; the meter then has one, so another is refused, and the same one again changes nothing.
    expect(await give('managerHere', ' EE000002 ', ' GIVE-P1 ')).toBe('GIVE-P1');
    expect(await radioOf('GIVE-P1')).toBe('EE000002');
    expect(await give('orgAdmin', 'EE000003', 'GIVE-P1')).toBe('METER_HAS_RADIO_ID');
    expect(await give('orgAdmin', 'EE000002', 'GIVE-P1')).toBe('GIVE-P1');
    expect(await radioOf('GIVE-P1')).toBe('EE000002');
    expect(await give('managerElsewhere', 'EE000004', 'GIVE-P2')).toBe('GIVE-P2');
    expect(await give('otherOrgAdmin', 'EE000005', 'GIVE-P3')).toBe('GIVE-P3');
    const audit = await database.db
      .select({ actor: auditLog.actor, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'meter.update'), eq(auditLog.subjectId, 'GIVE-P1')));
    expect(audit).toEqual([
      { actor: fx.ops.manager1.email, after: expect.objectContaining({ radioId: 'EE000002' }) },
    ]);
  });

  it('acceptDataIssue and rejectDataIssue: P1’s admin and manager only, audited', async () => {
    expect(
      await matrix(O.accept, (who) => ({ i: { id: String(mine[who].issue), as: 'NOTED', note: 'checked' } })),
    ).toEqual(p1Only);
    // Decided already: refused with its own code, nothing changes.
    expect(codeOf(await as('orgAdmin', O.reject, { id: String(mine.orgAdmin.issue) }))).toBe(
      'DATA_ISSUE_NOT_OPEN',
    );
    expect(await matrix(O.reject, (who) => ({ id: String(mine[who].issue) }))).toEqual({
      ...p1Only,
      orgAdmin: 'DATA_ISSUE_NOT_OPEN',
      managerHere: 'DATA_ISSUE_NOT_OPEN',
    });
    expect(
      await matrix(O.reject, (who) => ({
        id: String(mine[who === 'managerHere' ? 'managerElsewhere' : 'tenant'].issue),
      })),
    ).toEqual({ ...p1Only, managerHere: undefined, orgAdmin: undefined });
    // A finding cannot be booked as a correct reading.
    const open = mine.anonymous.issue;
    expect(codeOf(await as('orgAdmin', O.accept, { i: { id: String(open), as: 'CORRECT' } }))).toBe(
      'DATA_ISSUE_BAD_RESOLUTION',
    );
    const audit = await as(
      'managerHere',
      `{ auditLog(filter: { action: "data_issue.accept" }) { entries { actor reason } } }`,
    );
    expect((audit.data!.auditLog as { entries: { actor: string }[] }).entries.map((e) => e.actor)).toEqual([
      fx.ops.manager1.email,
      fx.ops.admin1.email,
    ]);
  });

  it('apiKeys, createApiKey, revokeApiKey: scoped to the caller’s properties; the key shown once', async () => {
    expect(await matrix(O.keys, () => ({}))).toEqual(everyOperator);
    const prefixes = async (who: Who) =>
      ((await as(who, O.keys)).data!.apiKeys as { prefix: string }[]).map((k) => k.prefix);
    expect((await prefixes('managerHere')).length).toBe(WHO.length);
    expect(await prefixes('managerElsewhere')).toEqual([]);
    expect(await prefixes('otherOrgAdmin')).toEqual([]);
    expect(await matrix(O.createKey, () => ({ n: 'integrator', p: [String(fx.p1)] }))).toEqual(p1Only);
    // A manager cannot widen a key to a property that is not theirs.
    expect(
      codeOf(await as('managerHere', O.createKey, { n: 'wide', p: [String(fx.p1), String(fx.p2)] })),
    ).toBe('FORBIDDEN');
    // A key's days of activity come with that key only, to whoever sees the key.
    await recordKeyActivity(database.db, Number(mine.orgAdmin.key), {
      totals: { rows: 3, accepted: 2, duplicate: 0, refused: 1, quarantined: 0 },
      results: [{ line: 3, status: 'refused', reason: 'unknown meter number "X"' }],
    });
    const activity = async (who: Who) =>
      Object.fromEntries(
        (
          (await as(who, `{ apiKeys { id activity { batches accepted refused lastRefusal } } }`)).data!
            .apiKeys as { id: string; activity: unknown[] }[]
        ).map((k) => [k.id, k.activity]),
      );
    for (const who of ['orgAdmin', 'managerHere'] as const) {
      const seen = await activity(who);
      expect(seen[mine.orgAdmin.key]).toEqual([
        { batches: 1, accepted: 2, refused: 1, lastRefusal: 'line 3: unknown meter number "X"' },
      ]);
      expect(seen[mine.managerHere.key]).toEqual([]);
    }
    expect(await activity('managerElsewhere')).toEqual({});
    expect(await matrix(O.revokeKey, (who) => ({ id: mine[who].key }))).toEqual(p1Only);
    const keys = (await as('orgAdmin', O.keys)).data!.apiKeys as { id: string; revokedAt: string | null }[];
    expect(keys.find((k) => k.id === mine.orgAdmin.key)!.revokedAt).not.toBeNull();
    expect(keys.find((k) => k.id === mine.tenant.key)!.revokedAt).toBeNull();
    // The secret is in the answer once, never in the audit log.
    const made = await as('orgAdmin', O.createKey, { n: 'once', p: [String(fx.p1)] });
    const key = (made.data!.createApiKey as { key: string }).key;
    expect(key).toMatch(/^tk_[0-9a-f]{8}_/);
    const log = JSON.stringify(await as('orgAdmin', `{ auditLog { entries { action before after } } }`));
    expect(log).toContain('api_key');
    expect(log).not.toContain(key.slice(12));
  });
});

describe('the invitation flow', () => {
  type Report = {
    batchId: string;
    sent: number;
    queued: number;
    failed: number;
    noAddress: number;
    activated: number;
    invitations: {
      id: string;
      email: string | null;
      status: string;
      error: string | null;
      line: number;
      activationCode: string | null;
    }[];
  };

  it('a file with an unknown tenancy or a repeated line is refused whole, with its lines', async () => {
    const r = await as('orgAdmin', O.bulk, {
      csv: `email,tenancy\nx@tenants.test,T-P1-1\ny@tenants.test,NOPE\nx@tenants.test,T-P1-1\n`,
    });
    expect(r.data!.bulkInvite).toEqual({
      report: null,
      problems: [
        { line: 3, message: 'no tenancy NOPE in your properties' },
        { line: 4, message: 'the same tenancy and email appear twice' },
      ],
    });
    expect((await as('orgAdmin', O.bulk, { csv: 'who,what\n' })).data!.bulkInvite).toMatchObject({
      problems: [{ line: 1 }],
    });
  });

  it('bulk with one bad address and one without: the report says sent, failed and no address; resend, revoke, activate', async () => {
    const before = smtp.mails.length;
    const r = await as('orgAdmin', O.bulk, {
      csv: `tenancy,email\nT-P1-1,Anna@Tenants.test\nT-P1-1,not-an-address\nT-P1-1,\n`,
    });
    const report = (r.data!.bulkInvite as { report: Report }).report;
    expect(report).toMatchObject({ sent: 1, queued: 0, failed: 1, noAddress: 1, activated: 0 });
    const byLine = new Map(report.invitations.map((i) => [i.line, i]));
    expect(byLine.get(2)).toMatchObject({ email: 'anna@tenants.test', status: 'SENT' });
    expect(byLine.get(3)).toMatchObject({ status: 'FAILED', error: 'not a valid email address' });
    expect(byLine.get(4)).toMatchObject({ email: null, status: 'NO_ADDRESS' });
    expect(byLine.get(4)!.activationCode).toMatch(/^[A-Z]{12}$/);
    const mail = await smtp.waitFor((m) => m.to.includes('anna@tenants.test'));
    expect(mail.text).toContain(byLine.get(2)!.activationCode);
    expect(smtp.mails.length).toBe(before + 1);

    // The same report later, by its batch id.
    const again = await as('orgAdmin', O.invitations, { b: report.batchId });
    expect(again.data!.invitations).toMatchObject({ sent: 1, failed: 1, noAddress: 1 });

    // Resend the failed one to a corrected address.
    const fixed = await as('orgAdmin', O.resend, { id: byLine.get(3)!.id, e: 'bo@tenants.test' });
    expect(fixed.data!.resendInvitation).toMatchObject({
      email: 'bo@tenants.test',
      status: 'SENT',
      error: null,
    });
    await smtp.waitFor((m) => m.to.includes('bo@tenants.test'));
    expect(codeOf(await as('orgAdmin', O.resend, { id: byLine.get(4)!.id }))).toBe('NO_ADDRESS');

    // Revoke the letter's code: it stops working at once.
    const code = byLine.get(4)!.activationCode!;
    const revoked = await as('orgAdmin', O.revoke, { id: byLine.get(4)!.id });
    expect(revoked.data!.revokeInvitation).toEqual({
      id: byLine.get(4)!.id,
      status: 'REVOKED',
      activationCode: null,
    });
    expect((await checkActivationCode(database.db, code, null)).ok).toBe(false);

    // Anna signs up with her code: activated; her code can no longer be revoked.
    const [anna] = await database.db
      .insert(users)
      .values({ email: 'anna@tenants.test', name: 'Anna', passwordHash: 'x' })
      .returning();
    await redeemActivationCode(database.db, byLine.get(2)!.activationCode!, fx.tenancy1, anna!.id);
    expect(codeOf(await as('orgAdmin', O.revoke, { id: byLine.get(2)!.id }))).toBe('INVITATION_USED');
    const last = (await as('orgAdmin', O.invitations, { b: report.batchId })).data!.invitations;
    expect(last).toMatchObject({ sent: 1, failed: 0, noAddress: 0, activated: 1, revoked: 1 });
    const actions = (await database.db.select({ action: auditLog.action }).from(auditLog)).map(
      (a) => a.action,
    );
    expect(actions).toEqual(
      expect.arrayContaining(['invitation.bulk', 'invitation.resend', 'invitation.revoke']),
    );
  });
});

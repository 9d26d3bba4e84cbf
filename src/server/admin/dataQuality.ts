/**
 * The data-quality queue and the ingestion API's keys as console calls (issue 21), on ingestion's own operations
 * (src/server/ingest/issues.ts, apiKeys.ts: the same ones the CLI uses), scoped to the caller's properties and
 * audited in the same transaction as the change.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { dataIssues, measurementPoints, meters, mqttUnmatched, properties } from '../db/schema.ts';
import { pgNumberArray, queryRows } from '../db/sql.ts';
import { badInput, forbidden } from '../graphql/errors.ts';
import {
  ApiKeyError,
  type ApiKeyInfo,
  createApiKey as create,
  listApiKeys,
  revokeApiKey as revoke,
} from '../ingest/apiKeys.ts';
import {
  acceptIssue,
  type DataIssue,
  DataIssueError,
  listIssues,
  type Resolution,
  rejectIssue,
} from '../ingest/issues.ts';
import { IngestError } from '../ingest/types.ts';
import { mqttFeedOrganisation } from '../mqtt/owner.ts';
import { feedStatus } from '../mqtt/status.ts';
import { type Actor, recordAudit } from './audit.ts';
import { saveMeterSettings, settingsOf } from './meters.ts';
import { opsError } from './opsErrors.ts';
import { type OperatorScope, reachablePropertyIds, reaches, requireProperty } from './scope.ts';

const idOf = (raw: string) => {
  if (!/^\d{1,9}$/.test(raw)) throw forbidden();
  return Number(raw);
};

/** Ingestion's refusals as the console's coded errors. */
function mapped(err: unknown): unknown {
  if (err instanceof DataIssueError) {
    if (err.code === 'NOT_FOUND') return forbidden();
    if (err.code === 'NOT_OPEN') return opsError('DATA_ISSUE_NOT_OPEN', err.message);
    return opsError('DATA_ISSUE_BAD_RESOLUTION', err.message);
  }
  if (err instanceof IngestError) return badInput(err.message);
  if (err instanceof ApiKeyError) return badInput(err.message);
  return err;
}

/** A row of the queue's untaken telegrams (schema: UntakenTelegrams). */
export type UntakenTelegramsRow = {
  radioId: string;
  reason: string;
  meterNumber: string;
  propertyId: number;
  telegrams: number;
  firstSeen: string | Date;
  lastSeen: string | Date;
  driver: string | null;
  detail: string | null;
  /** The detail as a code and its params (src/lib/refusalCodes.ts); null for rows stored before migration 0025. */
  detailCode: string | null;
  detailParams: Record<string, unknown> | null;
};

/**
 * The open (or other) issues of the caller's properties, newest first; unknown radio ids and the feed's status for
 * the admins of the organisation that runs the MQTT feed; telegrams of the caller's meters that gave no reading.
 */
export async function dataQualityQueue(
  db: Db,
  scope: OperatorScope,
  filter: { status?: 'open' | 'accepted' | 'rejected' | 'all'; propertyId?: string | null; limit: number },
  /** MQTT_ORGANISATION: whose admins see the radio ids no meter has (src/server/mqtt/owner.ts). */
  feedSetting?: string,
) {
  const propertyIds = filter.propertyId
    ? [(await requireProperty(db, scope, filter.propertyId)).id]
    : await reachablePropertyIds(db, scope);
  const issues =
    propertyIds.length === 0
      ? []
      : await listIssues(db, { status: filter.status, propertyIds, limit: filter.limit });
  // Radio ids no meter has are not tied to a property: only the admins of the organisation that runs the feed see
  // them (another organisation's admin must not see what that organisation's reader sent).
  const feedAdmin =
    scope.propertyIds === null && scope.accountId === (await mqttFeedOrganisation(db, feedSetting));
  const unknownRadioIds = feedAdmin
    ? await db
        .select()
        .from(mqttUnmatched)
        .where(eq(mqttUnmatched.reason, 'unknown_id'))
        .orderBy(desc(mqttUnmatched.lastSeen))
        .limit(filter.limit)
    : [];
  // Telegrams of the caller's meters that gave no reading: tied to a property through the meter's radio id.
  const untakenTelegrams =
    propertyIds.length === 0
      ? []
      : await queryRows<UntakenTelegramsRow>(
          db,
          sql`SELECT u.radio_id AS "radioId", u.reason, m.number AS "meterNumber", mp.property_id AS "propertyId",
                u.telegrams, u.first_seen AS "firstSeen", u.last_seen AS "lastSeen", u.driver,
                u.last_detail AS "detail", u.last_code AS "detailCode", u.last_params AS "detailParams"
              FROM mqtt_unmatched u
              JOIN meters m ON m.radio_id = u.radio_id
              JOIN measurement_points mp ON mp.id = m.measurement_point_id
              WHERE u.reason <> 'unknown_id' AND mp.property_id = ANY(${pgNumberArray(propertyIds)}::int[])
              ORDER BY u.last_seen DESC
              LIMIT ${filter.limit}`,
        );
  // The feed's connection and backlog, for the same admins: the broker's address and what its reader sent.
  const mqttFeed = feedAdmin ? await feedStatus(db) : null;
  return { issues, unknownRadioIds, untakenTelegrams, mqttFeed };
}

/**
 * Gives a radio id listed as unknown to one of the caller's meters, named by its number (the data-quality page).
 * Refused, nothing written: METER_NOT_FOUND for a number no meter of the caller's properties has (the same answer
 * whether the meter exists elsewhere or not at all), METER_HAS_RADIO_ID when the meter has another one already (its
 * own page changes it), RADIO_ID_TAKEN when another meter has this one. Saved as the meter page's settings are, in
 * the audit log too; at the MQTT subscriber's next drain the id's latest telegram is taken in (mqtt/inbox.ts).
 */
export async function giveRadioId(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { radioId: string; meterNumber: string },
): Promise<{ radioId: string; meterId: number; meterNumber: string }> {
  const radioId = input.radioId.trim();
  const meterNumber = input.meterNumber.trim();
  if (!/^[\x21-\x7e]{1,64}$/.test(radioId)) throw badInput('radioId must be 1–64 printable characters');
  const notFound = () => opsError('METER_NOT_FOUND', `No meter ${meterNumber} among your properties`);
  if (meterNumber === '' || meterNumber.length > 64) throw notFound();
  const [row] = await db
    .select({ meter: meters, property: { id: properties.id, accountId: properties.accountId } })
    .from(meters)
    .innerJoin(measurementPoints, eq(measurementPoints.id, meters.measurementPointId))
    .innerJoin(properties, eq(properties.id, measurementPoints.propertyId))
    .where(eq(meters.number, meterNumber));
  if (!row || !reaches(scope, row.property)) throw notFound();
  const { meter } = row;
  if (meter.radioId !== radioId) {
    if (meter.radioId) {
      throw opsError('METER_HAS_RADIO_ID', `Meter ${meter.number} has radio id ${meter.radioId} already`);
    }
    await saveMeterSettings(db, scope, who, { id: String(meter.id), ...settingsOf(meter), radioId });
  }
  return { radioId, meterId: meter.id, meterNumber: meter.number };
}

/** The issue's property must be the caller's (FORBIDDEN otherwise, also for unknown ids). */
async function requireIssue(db: Db, scope: OperatorScope, rawId: string) {
  const id = idOf(rawId);
  const [row] = await db
    .select({ propertyId: dataIssues.propertyId })
    .from(dataIssues)
    .where(eq(dataIssues.id, id));
  if (!row) throw forbidden();
  await requireProperty(db, scope, row.propertyId);
  return { id, propertyId: row.propertyId };
}

/** Accepts or rejects an issue and records it in the audit log, in one transaction. */
export async function decideIssue(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  rawId: string,
  decision:
    | {
        accept: true;
        as: Resolution;
        note?: string | null;
        newMeter?: string | null;
        endValue?: string | null;
      }
    | { accept: false; note?: string | null },
): Promise<DataIssue> {
  const { id, propertyId } = await requireIssue(db, scope, rawId);
  const note = decision.note?.trim().slice(0, 1000) || undefined;
  try {
    return await db.transaction(async (txn) => {
      const tx = txn as unknown as Db;
      const issue = decision.accept
        ? await acceptIssue(tx, id, {
            as: decision.as,
            by: who.actor,
            note,
            newMeter: decision.newMeter?.trim() || undefined,
            endValue: decision.endValue?.trim() || undefined,
          })
        : await rejectIssue(tx, id, who.actor, note);
      await recordAudit(tx, who, {
        action: decision.accept ? 'data_issue.accept' : 'data_issue.reject',
        subjectType: 'data_issue',
        subjectId: id,
        propertyId,
        reason: note ?? null,
        before: { status: 'open' },
        after: { status: issue.status, resolution: issue.resolution },
      });
      return issue;
    });
  } catch (err) {
    throw mapped(err);
  }
}

/** Whether every property of the key is one the caller reaches. */
const keyReached = (key: ApiKeyInfo, reached: Set<number>) =>
  key.propertyIds.length > 0 && key.propertyIds.every((id) => reached.has(id));

async function reachedIds(db: Db, scope: OperatorScope) {
  return new Set(await reachablePropertyIds(db, scope));
}

/** The keys all of whose properties the caller reaches, newest first. */
export async function apiKeysOf(db: Db, scope: OperatorScope): Promise<ApiKeyInfo[]> {
  const reached = await reachedIds(db, scope);
  return (await listApiKeys(db)).filter((k) => keyReached(k, reached));
}

/** A key for properties the caller reaches; the secret is in the result only. Audited (never the secret). */
export async function createApiKey(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { name: string; propertyIds: string[] },
) {
  if (input.propertyIds.length === 0) throw badInput('propertyIds: give at least one property');
  const ids: number[] = [];
  for (const raw of input.propertyIds) ids.push((await requireProperty(db, scope, raw)).id);
  if (input.name.trim().length > 100) throw badInput('name: at most 100 characters');
  try {
    return await db.transaction(async (txn) => {
      const tx = txn as unknown as Db;
      const created = await create(tx, { name: input.name, propertyIds: ids, by: who.actor });
      await recordAudit(tx, who, {
        action: 'api_key.create',
        subjectType: 'api_key',
        subjectId: created.info.id,
        propertyId: ids.length === 1 ? ids[0] : null,
        after: { name: created.info.name, prefix: created.info.prefix, propertyIds: ids },
      });
      return created;
    });
  } catch (err) {
    throw mapped(err);
  }
}

/** Revokes a key all of whose properties the caller reaches; audited. */
export async function revokeApiKey(db: Db, scope: OperatorScope, who: Actor, rawId: string) {
  const id = idOf(rawId);
  const reached = await reachedIds(db, scope);
  const [key] = await listApiKeys(db, id);
  if (!key || !keyReached(key, reached)) throw forbidden();
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const info = await revoke(tx, id);
    await recordAudit(tx, who, {
      action: 'api_key.revoke',
      subjectType: 'api_key',
      subjectId: id,
      propertyId: key.propertyIds.length === 1 ? key.propertyIds[0] : null,
      before: { revokedAt: key.revokedAt },
      after: { revokedAt: info.revokedAt },
    });
    return info;
  });
}

/** Ingestion: data issues, API keys, batches, signing keys and the MQTT inbox (docs/ingest.md). */
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { meters } from './readings.ts';
import { properties } from './tenancies.ts';

// ---- ingestion (docs/ingest.md) ----

/**
 * The data-issue queue: a suspect reading (quarantined: not in register_readings, so not booked; the hours
 * around it stay unknown) or a finding of the worker (a stuck or silent meter), with its evidence, until an
 * operator accepts or rejects it (`npm run cli -- data-issues`, later the operator console).
 */
export const dataIssues = pgTable(
  'data_issues',
  {
    id: serial('id').primaryKey(),
    /**
     * drop: a fall that is no reset or rollover; digit-shift: a value a power of ten off its neighbour;
     * jump: a rise above the quantity's bound; stuck: no change for days where the quantity moves;
     * silent: no reading for hours.
     */
    kind: text('kind', { enum: ['drop', 'digit-shift', 'jump', 'stuck', 'silent'] }).notNull(),
    status: text('status', { enum: ['open', 'accepted', 'rejected'] })
      .notNull()
      .default('open'),
    meterId: integer('meter_id')
      .notNull()
      .references(() => meters.id),
    /** The meter's property, for scoping (API keys, the console). */
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id),
    /** The suspect reading (quarantined kinds), or the time of the finding (stuck, silent). */
    readingTs: timestamp('reading_ts', { withTimezone: true }).notNull(),
    readingValue: numeric('reading_value'),
    /**
     * Why: the neighbouring accepted readings ({before: {ts, value}, after: {ts, value}}), the bound or rule
     * that failed, a human-readable `reason`.
     */
    evidence: jsonb('evidence').notNull(),
    /** Where the reading came from: `csv`, `http:key:<id>`, `mqtt`, `worker`. */
    source: text('source').notNull(),
    /** How an accepted issue was taken: `correct`, `reset`, `swap` (quarantined kinds) or `noted` (findings). */
    resolution: text('resolution', { enum: ['correct', 'reset', 'swap', 'noted'] }),
    resolvedBy: text('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    index('data_issues_meter_idx').on(t.meterId, t.readingTs),
    index('data_issues_property_idx').on(t.propertyId, t.status),
    // One open finding per meter and kind at a time (the worker runs again and again).
    uniqueIndex('data_issues_open_finding_uq')
      .on(t.meterId, t.kind)
      .where(sql`status = 'open' AND kind IN ('stuck', 'silent')`),
    // One quarantined reading per meter and time.
    uniqueIndex('data_issues_open_reading_uq')
      .on(t.meterId, t.readingTs)
      .where(sql`status = 'open' AND kind IN ('drop', 'digit-shift', 'jump')`),
  ],
);

/** Operator API keys of the ingestion API: shown once, stored as SHA-256 of the secret. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** The key's first characters (`tk_xxxxxxxx`), shown in lists so an operator can tell keys apart. */
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_secret_hash_uq').on(t.secretHash)],
);

/** The properties an API key may write to (at least one). */
export const apiKeyProperties = pgTable(
  'api_key_properties',
  {
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.propertyId] })],
);

/**
 * What each API key sent, per Copenhagen day (migration 0024): batches answered with a receipt and their rows by
 * outcome, and the newest refusal's line and reason, so the console can show which gateway sends bad rows. A
 * replayed batch (same Idempotency-Key) is not counted again; a request refused as a whole (bad key, malformed
 * body, too large) has no receipt and is counted in /metrics only.
 */
export const apiKeyDays = pgTable(
  'api_key_days',
  {
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    batches: integer('batches').notNull().default(0),
    rows: integer('rows').notNull().default(0),
    accepted: integer('accepted').notNull().default(0),
    duplicate: integer('duplicate').notNull().default(0),
    refused: integer('refused').notNull().default(0),
    quarantined: integer('quarantined').notNull().default(0),
    lastRefusal: text('last_refusal'),
    lastRefusalAt: timestamp('last_refusal_at', { withTimezone: true }),
    /** The newest refusal's line, code and params (migration 0025; null on rows stored before). */
    lastRefusalLine: integer('last_refusal_line'),
    lastRefusalCode: text('last_refusal_code'),
    lastRefusalParams: jsonb('last_refusal_params'),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.day] })],
);

/**
 * A batch posted to the ingestion API: its idempotency key and body hash (a replay answers the stored
 * receipt), and, for a batch above the synchronous limit, its rows until the worker has ingested them.
 */
export const ingestBatches = pgTable(
  'ingest_batches',
  {
    id: serial('id').primaryKey(),
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key'),
    bodySha256: text('body_sha256').notNull(),
    atomic: boolean('atomic').notNull().default(false),
    status: text('status', { enum: ['pending', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    rowCount: integer('row_count').notNull(),
    /** The parsed rows of a pending batch; cleared once done. */
    rows: jsonb('rows'),
    receipt: jsonb('receipt'),
    /** A batch ingested in parts (batchTask.ts): how many of its rows, in time order, are committed. */
    doneRows: integer('done_rows').notNull().default(0),
    /** The receipt of those rows so far; merged into `receipt` with the last part. */
    partial: jsonb('partial'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('ingest_batches_idem_uq').on(t.apiKeyId, t.idempotencyKey)],
);

/**
 * The public-key fingerprint each backend signs tokens with, so that processes sharing one PostgreSQL database
 * can tell when they do not share keys (auth/keyCheck.ts): a process with keys generated into its own DATA_DIR is
 * refused when another one already signs with different keys.
 */
export const signingKeys = pgTable('signing_keys', {
  /** account | tenant | admin. */
  backend: text('backend').primaryKey(),
  /** sha256 of the Ed25519 public key, hex. */
  fingerprint: text('fingerprint').notNull(),
  /** env (ACCOUNT_/TENANT_JWT_PRIVATE_KEY) or generated (DATA_DIR/keys). */
  source: text('source').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * MQTT telegrams received and acknowledged, not yet ingested: the subscriber writes each one here before it
 * acknowledges it (QoS 1), and the drainer ingests them in batches and deletes them in the same transaction, so a
 * telegram survives a crash between the two (src/server/mqtt/).
 */
export const mqttInbox = pgTable('mqtt_inbox', {
  id: serial('id').primaryKey(),
  topic: text('topic').notNull(),
  payload: text('payload').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The MQTT feed as its subscriber last reported it, one row per subscriber (its client id): whether it is connected
 * to the broker and since when, the broker's latest error, when it last stored a telegram, and when it last
 * reported (at least every 30 s while it runs). The console shows it to the feed's organisation admins; a report
 * older than a few minutes means no subscriber runs (src/server/mqtt/status.ts, migration 0026).
 */
export const mqttFeed = pgTable('mqtt_feed', {
  clientId: text('client_id').primaryKey(),
  /** The broker's URL without its password. */
  url: text('url').notNull(),
  topic: text('topic').notNull(),
  connected: boolean('connected').notNull(),
  /** When it connected, or lost the connection. */
  since: timestamp('since', { withTimezone: true }).notNull(),
  lastError: text('last_error'),
  lastTelegramAt: timestamp('last_telegram_at', { withTimezone: true }),
  reportedAt: timestamp('reported_at', { withTimezone: true }).notNull().defaultNow(),
  /** When the feed check mailed the organisation's admins that it is down (mqtt/alert.ts); null while it is up. */
  alertedAt: timestamp('alerted_at', { withTimezone: true }),
});

/**
 * MQTT telegrams that gave no reading, counted per radio id (or `-` when the telegram had none) and reason:
 * `unknown_id` (no meter has that radio id), `malformed` (not a wmbusmeters JSON telegram), `no_value` (no field
 * for the meter's quantity), `refused` (the reading failed validation). Listed by `npm run cli -- mqtt unknown`.
 */
export const mqttUnmatched = pgTable(
  'mqtt_unmatched',
  {
    radioId: text('radio_id').notNull(),
    reason: text('reason').notNull(),
    telegrams: integer('telegrams').notNull().default(0),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull().defaultNow(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
    /** The driver (wmbusmeters' `meter`) of the latest such telegram, when it named one. */
    driver: text('driver'),
    /** The latest such telegram, cut to 2,000 characters, and why it gave nothing. */
    lastPayload: text('last_payload').notNull(),
    lastDetail: text('last_detail'),
    /** The detail as a code and params (src/lib/refusalCodes.ts, TelegramDetailCode; migration 0025). */
    lastCode: text('last_code'),
    lastParams: jsonb('last_params'),
  },
  (t) => [primaryKey({ columns: [t.radioId, t.reason] })],
);

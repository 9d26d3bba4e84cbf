/** The operator console: roles, properties given, second factor, audit log, interim readings, invitations. */
import {
  boolean,
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
import { accounts, properties, tenancies, users } from './tenancies.ts';

// ---- operator console ----

/**
 * An operator (a `users` row with `is_admin`: the admin portal's own identities, whose email can never sign
 * up in the tenant app, and the reverse) and their role in one organisation (an `accounts` row):
 * `org_admin` sees every property of the organisation and manages operators; `property_manager` sees only
 * the properties in `operator_properties`.
 */
export const operatorRoles = pgTable(
  'operator_roles',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    role: text('role', { enum: ['org_admin', 'property_manager'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('operator_roles_account_idx').on(t.accountId)],
);

/** The properties a property manager is given. */
export const operatorProperties = pgTable(
  'operator_properties',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.propertyId] }),
    index('operator_properties_property_idx').on(t.propertyId),
  ],
);

/**
 * An operator's TOTP second factor (RFC 6238, SHA-1, 6 digits, 30 s). `confirmedAt` null: set up but not yet
 * confirmed with a code, so login still asks for the setup. `lastStep` is the last accepted time step: a code
 * is accepted once.
 */
export const operatorTotp = pgTable('operator_totp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Base32 secret. */
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastStep: integer('last_step'),
  createdAt: createdAt(),
});

/** One-time recovery codes of an operator's second factor, stored as SHA-256 hashes. */
export const operatorRecoveryCodes = pgTable(
  'operator_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('operator_recovery_codes_user_idx').on(t.userId)],
);

/**
 * The audit log: every operator write (who, when, what, before and after), impersonations and views of a
 * tenant's data. Append-only: a trigger (migration 0008) refuses UPDATE and DELETE. No foreign keys, so a
 * deleted user or property never takes its entries with it.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The operator's user id; null for the CLI. */
    operatorId: integer('operator_id'),
    /** The operator's email when it happened, or `cli:<os user>`. */
    actor: text('actor').notNull(),
    /** What was done, e.g. `operator.create`, `tenancy.move_out`, `tenant.impersonate`, `tenant.view`. */
    action: text('action').notNull(),
    /** What it was done to: `operator`, `property`, `tenancy`, `user`, … and its id. */
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    /** The property it concerns, so a property manager sees their properties' entries; null for none. */
    propertyId: integer('property_id'),
    /** The organisation it concerns. */
    accountId: integer('account_id'),
    reason: text('reason'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_account_at_idx').on(t.accountId, t.at),
    index('audit_log_property_at_idx').on(t.propertyId, t.at),
  ],
);

/**
 * The interim reading at a change of tenant (HeizkostenV §9b): each register meter of the flat at the first
 * instant after the ended tenancy's last day, recorded when an operator moves the tenant out. `source`: `meter`
 * (the meter's own latest reading at or before that instant, taken at `readingTs`), `operator` (read on site and
 * typed in), `missing` (no reading yet: the row says so rather than inventing one).
 */
export const tenancyInterimReadings = pgTable(
  'tenancy_interim_readings',
  {
    id: serial('id').primaryKey(),
    tenancyId: integer('tenancy_id')
      .notNull()
      .references(() => tenancies.id, { onDelete: 'cascade' }),
    meterId: integer('meter_id')
      .notNull()
      .references(() => meters.id),
    /** The change of tenant: local midnight after the tenancy's last day. */
    at: timestamp('at', { withTimezone: true }).notNull(),
    value: numeric('value'),
    readingTs: timestamp('reading_ts', { withTimezone: true }),
    source: text('source', { enum: ['meter', 'operator', 'missing'] }).notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('tenancy_interim_readings_uq').on(t.tenancyId, t.meterId)],
);

/**
 * Invitations an operator sent from the console (one or a bulk CSV of tenancy and email): the activation code,
 * where its mail went and whether it is used, for the delivery report. `email` null: no address (the code is for
 * a letter). `mailError`: why the last send failed (an address refused before sending, or the SMTP server's
 * answer; the send-mail job retries the latter). Sent and activated are read from the mail outbox and the code.
 */
export const operatorInvitations = pgTable(
  'operator_invitations',
  {
    id: serial('id').primaryKey(),
    tenancyId: integer('tenancy_id')
      .notNull()
      .references(() => tenancies.id, { onDelete: 'cascade' }),
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id),
    /** The bulk upload it came from (its first row's id), null for a single invitation. */
    batchId: integer('batch_id'),
    /** The CSV line it came from. */
    line: integer('line'),
    email: text('email'),
    activationCode: text('activation_code').notNull(),
    mailOutboxId: integer('mail_outbox_id'),
    mailError: text('mail_error'),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('operator_invitations_property_idx').on(t.propertyId, t.id),
    index('operator_invitations_batch_idx').on(t.batchId),
  ],
);

/**
 * The portfolio overview's figures per property (issue 21), so the overview reads 1,000 rows instead of
 * aggregating every meter, flat and tenancy per request. Triggers (migration 0017) bump `generation` and set
 * `dirty` on every write that changes a property's figures; the overview recomputes the dirty rows, the missing
 * ones and those whose time-dependent figures (the 24-hour reporting window, current tenancies, removal dates)
 * change at `valid_until`, before it reads (src/server/admin/portfolioSummary.ts).
 */
export const propertySummaries = pgTable('property_summaries', {
  propertyId: integer('property_id')
    .primaryKey()
    .references(() => properties.id, { onDelete: 'cascade' }),
  dirty: boolean('dirty').notNull().default(true),
  generation: integer('generation').notNull().default(0),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
  /** When a time-dependent figure next changes; null: not before a write. */
  validUntil: timestamp('valid_until', { withTimezone: true }),
  apartments: integer('apartments').notNull().default(0),
  meters: integer('meters').notNull().default(0),
  reporting: integer('reporting').notNull().default(0),
  lastReadingAt: timestamp('last_reading_at', { withTimezone: true }),
  openIssues: integer('open_issues').notNull().default(0),
  tenancies: integer('tenancies').notNull().default(0),
  invited: integer('invited').notNull().default(0),
  activated: integer('activated').notNull().default(0),
});

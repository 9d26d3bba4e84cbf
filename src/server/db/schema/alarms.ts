/** Jobs, alarms, notifications and monthly reports. */
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
import { tenancies, users } from './tenancies.ts';

// ---- alarms ----

/**
 * The job queue (src/server/jobs): one row per (task, subject, period), so enqueueing the same job twice is a
 * no-op and a job that ran is never run again. Workers claim rows with FOR UPDATE SKIP LOCKED and run the task
 * in the same transaction that marks the row done.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    task: text('task').notNull(),
    /** The dedupe key: task, subject and period, e.g. `evaluate-alarm:alarm:7:2026-11-21`. */
    key: text('key').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    /** Failed attempts so far; a "not ready yet" postponement does not count. */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** The id of the request that enqueued the job (its access-log and GraphQL log lines carry it too). */
    requestId: text('request_id'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('jobs_key_uq').on(t.key), index('jobs_due_idx').on(t.status, t.runAt)],
);

/** A user's alarm on one of their tenancies (SPEC §3 alarm types and frequencies). */
export const alarms = pgTable(
  'alarms',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenancyId: integer('tenancy_id')
      .notNull()
      .references(() => tenancies.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['threshold', 'comparison', 'zero_consumption', 'indoor_climate'] }).notNull(),
    quantity: text('quantity').notNull(),
    frequency: text('frequency', { enum: ['day', 'week', 'month', 'year'] }).notNull(),
    /** Amount in the quantity's unit (threshold), percent (comparison), 0 (zero consumption). */
    threshold: numeric('threshold'),
    minimum: numeric('minimum'),
    maximum: numeric('maximum'),
    /** Water, zero consumption: also fire when water ran in every hour for 24 hours (a leak). */
    leakRule: boolean('leak_rule').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('alarms_user_tenancy_idx').on(t.userId, t.tenancyId),
    // Late data (ingest/lateData.ts) looks alarms up by tenancy and quantity.
    index('alarms_tenancy_quantity_idx').on(t.tenancyId, t.quantity),
  ],
);

/** The outcome of evaluating one alarm for one complete period; at most one per period, so it fires once. */
export const alarmEvaluations = pgTable(
  'alarm_evaluations',
  {
    alarmId: integer('alarm_id')
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    /** First day of the period (Europe/Copenhagen). */
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    /** Day after the period's last day. */
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    state: text('state', { enum: ['ok', 'fired', 'unknown'] }).notNull(),
    /** Period total (consumption) or average (indoor climate); null when not known. */
    value: numeric('value'),
    /** What it was compared with: threshold, previous period's total, minimum or maximum. */
    reference: numeric('reference'),
    /** above_threshold, increase, zero, leak, below_minimum, above_maximum, missing_data. */
    reason: text('reason'),
    evaluatedAt: timestamp('evaluated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.alarmId, t.periodStart] })],
);

/** Notifications of SPEC §3's kinds for one user; `key` makes each one unique per (kind, subject, period). */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tenancyId: integer('tenancy_id')
      .notNull()
      .references(() => tenancies.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: ['high_consumption', 'zero_consumption', 'indoor_climate', 'consumption_report'],
    }).notNull(),
    alarmId: integer('alarm_id').references(() => alarms.id, { onDelete: 'set null' }),
    quantity: text('quantity'),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    frequency: text('frequency').notNull(),
    value: numeric('value'),
    reference: numeric('reference'),
    reason: text('reason'),
    /** Consumption report: totals per quantity for the month. */
    details: jsonb('details'),
    key: text('key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** When the mail step took it (sent, or skipped because the user wants no mail). */
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('notifications_key_uq').on(t.key),
    index('notifications_user_idx').on(t.userId, t.createdAt),
  ],
);

// ---- reports ----

/**
 * The public monthly report (SPEC §2 report/:code): one per tenancy per complete month, a snapshot of its
 * figures taken when generated, so the page reads this one row by its code and nothing else.
 * Unique (tenancy, month) makes generation idempotent: the job key is (monthly-report, tenancy, month).
 */
export const monthlyReports = pgTable(
  'monthly_reports',
  {
    id: serial('id').primaryKey(),
    /** 43 characters of base64url from 32 random bytes: the only key to the page. */
    code: text('code').notNull(),
    tenancyId: integer('tenancy_id')
      .notNull()
      .references(() => tenancies.id, { onDelete: 'cascade' }),
    /** First day of the reported month (Europe/Copenhagen). */
    month: date('month', { mode: 'string' }).notNull(),
    /** The tenancy's language when generated; the page offers the others. */
    language: text('language').notNull(),
    /** The report's figures (src/server/reports/model.ts `MonthlyReport`). */
    content: jsonb('content').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('monthly_reports_code_uq').on(t.code),
    uniqueIndex('monthly_reports_tenancy_month_uq').on(t.tenancyId, t.month),
  ],
);

/** rate-limiter-flexible's Drizzle store: report-code lookups per client address. */
export const reportLookupLimits = pgTable('report_lookup_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expire: timestamp('expire', { withTimezone: true }),
});

/** Statements, degree days, fixed charges, throttles, one-time tokens and impersonations. */
import { sql } from 'drizzle-orm';
import {
  check,
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
import { properties, tenancies, users } from './tenancies.ts';

// ---- statements ----

/**
 * An annual heat allocation statement for one tenancy, as imported by the operator
 * (`npm run cli -- import-statement`). Money is numeric; the PDF is rendered from these rows on request.
 */
export const allocationStatements = pgTable(
  'allocation_statements',
  {
    id: serial('id').primaryKey(),
    tenancyId: integer('tenancy_id')
      .notNull()
      .references(() => tenancies.id, { onDelete: 'cascade' }),
    periodStart: date('period_start', { mode: 'string' }).notNull(),
    periodEnd: date('period_end', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    /** Share of the heating costs split by floor area, in percent; the rest is split by consumption. */
    fixedSharePercent: numeric('fixed_share_percent').notNull(),
    variableSharePercent: numeric('variable_share_percent').notNull(),
    /** The tenant's fixed (by area) and variable (by consumption) shares, summed over the expense types. */
    fixedAmount: numeric('fixed_amount').notNull(),
    variableAmount: numeric('variable_amount').notNull(),
    advancePayments: numeric('advance_payments').notNull(),
    /** Shares minus advance payments: positive means the tenant pays more, negative means a refund. */
    balance: numeric('balance').notNull(),
    objectionDeadline: date('objection_deadline', { mode: 'string' }).notNull(),
    /** Expense lines, area and consumption bases, degree days (src/server/statements/model.ts). */
    details: jsonb('details').notNull(),
    /** `import`: an operator's file (CLI or console); `demo`: the demo's own, which it refreshes (demo/statements.ts). */
    source: text('source').notNull().default('import'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('allocation_statements_period_uq').on(t.tenancyId, t.periodStart, t.periodEnd),
    check('allocation_statements_period_order', sql`${t.periodStart} <= ${t.periodEnd}`),
    check('allocation_statements_source', sql`${t.source} IN ('import', 'demo')`),
  ],
);

// ---- consumption ----

/**
 * Heating degree days per property and Europe/Copenhagen day, derived from the property's outdoor-temperature
 * point(s) in daily_rollups: max(0, 17 − daily mean °C), the Danish convention. `hours` is how many hourly
 * values the mean is made of (23–25 on a complete day). Written by src/server/tenant/degreeDays.ts.
 */
export const propertyDegreeDays = pgTable(
  'property_degree_days',
  {
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    meanTemperature: numeric('mean_temperature').notNull(),
    degreeDays: numeric('degree_days').notNull(),
    hours: integer('hours').notNull(),
  },
  (t) => [primaryKey({ columns: [t.propertyId, t.day] })],
);

/**
 * Fixed charges of a property (subscription, meter rent, reading service), a yearly amount per apartment,
 * valid from a date (inclusive) to a date (exclusive) or open-ended; `quantity` null for the whole tenancy.
 */
export const fixedCharges = pgTable(
  'fixed_charges',
  {
    id: serial('id').primaryKey(),
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    quantity: text('quantity'),
    amountPerYear: numeric('amount_per_year').notNull(),
    currency: text('currency').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }),
  },
  (t) => [
    index('fixed_charges_property_idx').on(t.propertyId, t.validFrom),
    check('fixed_charges_amount_nonnegative', sql`${t.amountPerYear} >= 0`),
  ],
);

// ---- accounts ----

/** rate-limiter-flexible's Drizzle store: one row per throttled key (login:email, login-ip:addr, …). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true }),
});

/**
 * Single-use tokens sent by mail or handed out by the CLI, stored as SHA-256 hashes: password reset,
 * email change (with the new address), impersonation links, and the short-lived tokens (slt) that carry
 * a session from the account backend to the tenant backend.
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: serial('id').primaryKey(),
    purpose: text('purpose', {
      enum: ['password_reset', 'email_change', 'impersonation', 'slt', 'operator_mfa'],
    }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /** email_change: the address to switch to. */
    newEmail: text('new_email'),
    /** slt minted for an impersonation session: the session's end, so the tenant side ends with it. */
    sessionEndsAt: timestamp('session_ends_at', { withTimezone: true }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('one_time_tokens_hash_uq').on(t.tokenHash),
    index('one_time_tokens_user_idx').on(t.userId),
  ],
);

/** Every impersonation link: who issued it, for whom, when, and when it was used. */
export const impersonations = pgTable('impersonations', {
  id: serial('id').primaryKey(),
  /** The operator (OS user running the CLI, or IMPERSONATOR). */
  operator: text('operator').notNull(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  /** The target's email when issued; blanked when the user deletes their account. */
  userEmail: text('user_email').notNull(),
  reason: text('reason').notNull().default(''),
  /** The one_time_tokens row of the link. */
  tokenId: integer('token_id').notNull(),
  createdAt: createdAt(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

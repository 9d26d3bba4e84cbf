/**
 * The one Drizzle schema, for PGlite and PostgreSQL alike.
 * Timestamps are UTC (`timestamptz`); `day`/`month` columns are Europe/Copenhagen calendar dates.
 * Consumption and money are `numeric`, so sums stay exact; rounding happens only for display.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
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

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A landlord's or property manager's customer account; users see the accounts of their tenancies. */
export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /**
     * How long the members of an ended tenancy keep access to their own period, in months after the move-out
     * day, when no final statement covers the move-out day (with one, access ends after its objection deadline).
     * Set by an organisation admin in the console (src/server/admin/tenancies.ts); 0: access ends at move-out.
     */
    moveOutGraceMonths: integer('move_out_grace_months').notNull().default(12),
    createdAt: createdAt(),
  },
  (t) => [check('accounts_move_out_grace', sql`${t.moveOutGraceMonths} BETWEEN 0 AND 120`)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Stored lower-cased; unique. */
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    /** argon2id hash; null for social-only users. */
    passwordHash: text('password_hash'),
    language: text('language').notNull().default('en'),
    isSuperuser: boolean('is_superuser').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    /** Admin-portal user (above default rights): may not use the tenant app's social or impersonation login. */
    isAdmin: boolean('is_admin').notNull().default(false),
    /** Auth type: email, apple, google or facebook. */
    userType: text('user_type').notNull().default('email'),
    emailNotifications: boolean('email_notifications').notNull().default(true),
    /** Access tokens issued before this instant are refused (password change, email change, deletion). */
    tokensValidAfter: timestamp('tokens_valid_after', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_uq').on(t.email)],
);

export const permissions = pgTable('permissions', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
});

export const userPermissions = pgTable(
  'user_permissions',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    permissionId: integer('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.permissionId] })],
);

export const userAccounts = pgTable(
  'user_accounts',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.accountId] })],
);

export const properties = pgTable('properties', {
  id: serial('id').primaryKey(),
  accountId: integer('account_id')
    .notNull()
    .references(() => accounts.id),
  /** The landlord's property number, e.g. "1001". */
  number: text('number').notNull().unique(),
  name: text('name').notNull().default(''),
  address: text('address').notNull(),
  zipcode: text('zipcode').notNull(),
  city: text('city').notNull(),
  country: text('country').notNull().default('DK'),
  contactPhone: text('contact_phone'),
  contactEmail: text('contact_email'),
  createdAt: createdAt(),
});

/** Property settings entries; the app only checks whether a kind (e.g. HOURLY_VALUES) is present. */
export const propertySettings = pgTable(
  'property_settings',
  {
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
  },
  (t) => [primaryKey({ columns: [t.propertyId, t.kind] })],
);

/**
 * Per-property settings of the monthly report and the statement (one row per property; a property without a row
 * uses the defaults in src/lib/reportSettings.ts). The model, its validation and defaults live in
 * src/lib/reportSettings.ts (`PropertyReportSettings`); read and write through src/server/reports/settings.ts.
 */
export const propertyReportSettings = pgTable(
  'property_report_settings',
  {
    propertyId: integer('property_id')
      .primaryKey()
      .references(() => properties.id, { onDelete: 'cascade' }),
    /** 'private' (huslejenævn) or 'social' (almen bolig: beboerklagenævn): picks the dispute body. */
    landlordType: text('landlord_type').notNull().default('private'),
    /** Share of the heat that goes to hot water, left out of the climate correction (0–0.9). */
    hotWaterShare: numeric('hot_water_share').notNull().default('0.25'),
    /** Operator's conversion factor kWh per allocator unit, for allocator-only buildings without a supply meter. */
    hcaKwhPerUnit: numeric('hca_kwh_per_unit'),
    /** The heat supply's fuel mix: [{ source, percent }] summing to 100 (sources: FUEL_SOURCES). */
    fuelMix: jsonb('fuel_mix').notNull().default([]),
    /** The heat network's figures for `networkYear`: annual CO₂ emissions (tonnes), g CO₂/kWh, primary-energy factor. */
    networkYear: integer('network_year'),
    networkCo2Tonnes: numeric('network_co2_tonnes'),
    networkCo2GramPerKwh: numeric('network_co2_gram_per_kwh'),
    primaryEnergyFactor: numeric('primary_energy_factor'),
    /** Taxes, levies and metering/reading/billing fees per apartment and year: [{ kind, amountPerYear }]. */
    fees: jsonb('fees').notNull().default([]),
    currency: text('currency').notNull().default('DKK'),
    /** Overrides of the dispute body and consumer organisation the landlord type and country give (name + https URL). */
    disputeBodyName: text('dispute_body_name'),
    disputeBodyUrl: text('dispute_body_url'),
    consumerOrgName: text('consumer_org_name'),
    consumerOrgUrl: text('consumer_org_url'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('property_report_settings_landlord_type', sql`${t.landlordType} IN ('private', 'social')`),
    check('property_report_settings_hot_water_share', sql`${t.hotWaterShare} BETWEEN 0 AND 0.9`),
    check('property_report_settings_hca_factor', sql`${t.hcaKwhPerUnit} IS NULL OR ${t.hcaKwhPerUnit} > 0`),
  ],
);

export const propertyCo2Factors = pgTable(
  'property_co2_factors',
  {
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id, { onDelete: 'cascade' }),
    quantity: text('quantity').notNull(),
    gramPerQuantityUnit: numeric('gram_per_quantity_unit').notNull(),
  },
  (t) => [primaryKey({ columns: [t.propertyId, t.quantity] })],
);

export const apartments = pgTable(
  'apartments',
  {
    id: serial('id').primaryKey(),
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id),
    /** The unit's unique id across the operator (unitUniqueId). */
    uniqueId: text('unique_id').notNull().unique(),
    /** Floor/side label, e.g. "2. tv". */
    apartment: text('apartment').notNull(),
    address: text('address').notNull(),
    zipcode: text('zipcode').notNull(),
    city: text('city').notNull(),
    areaM2: numeric('area_m2').notNull(),
    rooms: integer('rooms').notNull(),
  },
  (t) => [
    index('apartments_property_idx').on(t.propertyId),
    // Per-m² figures divide by the area; a zero or negative area is refused at the door.
    check('apartments_area_positive', sql`${t.areaM2} > 0`),
    check('apartments_rooms_positive', sql`${t.rooms} > 0`),
  ],
);

export const tenancies = pgTable(
  'tenancies',
  {
    id: serial('id').primaryKey(),
    apartmentId: integer('apartment_id')
      .notNull()
      .references(() => apartments.id),
    /** The landlord's tenancy reference. */
    tenancyId: text('tenancy_id').notNull().unique(),
    /** The tenant's name as the landlord has it. */
    tenant: text('tenant').notNull().default(''),
    start: date('start', { mode: 'string' }).notNull(),
    end: date('end', { mode: 'string' }),
    useNewBackend: boolean('use_new_backend').notNull().default(true),
    billingStart: date('billing_start', { mode: 'string' }),
    billingEnd: date('billing_end', { mode: 'string' }),
    createdAt: createdAt(),
  },
  (t) => [index('tenancies_apartment_idx').on(t.apartmentId)],
);

export const tenancyMembers = pgTable(
  'tenancy_members',
  {
    tenancyId: integer('tenancy_id')
      .notNull()
      .references(() => tenancies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    isAdmin: boolean('is_admin').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenancyId, t.userId] }), index('tenancy_members_user_idx').on(t.userId)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    tenancyId: integer('tenancy_id')
      .notNull()
      .references(() => tenancies.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    invitedByUserId: integer('invited_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The activation code sent with this invitation. */
    activationCode: text('activation_code').notNull(),
    createdAt: createdAt(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  },
  (t) => [index('invitations_tenancy_idx').on(t.tenancyId)],
);

/** 12-letter codes, stored upper-case without dashes. */
export const activationCodes = pgTable('activation_codes', {
  code: text('code').primaryKey(),
  tenancyId: integer('tenancy_id')
    .notNull()
    .references(() => tenancies.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  /** Null: never expires (codes printed on a landlord's letter before expiry existed). */
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  usedAt: timestamp('used_at', { withTimezone: true }),
  usedByUserId: integer('used_by_user_id').references(() => users.id, { onDelete: 'set null' }),
});

/**
 * A measurement point is where a quantity is measured (a unit's heat, a room's radiator).
 * Meters are swapped over time; the point, and its consumption history, stays.
 */
export const measurementPoints = pgTable(
  'measurement_points',
  {
    id: serial('id').primaryKey(),
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id),
    /** Null for property-level points (e.g. outdoor temperature). */
    apartmentId: integer('apartment_id').references(() => apartments.id),
    /** A quantity identifier of SPEC §3, e.g. heat-energy. */
    quantity: text('quantity').notNull(),
    /** A unit identifier of SPEC §3, e.g. kilo-watt-hour. */
    unit: text('unit').notNull(),
    /** Room name for per-room points, e.g. "Living room". */
    room: text('room'),
    name: text('name').notNull(),
    legacyMeterId: text('legacy_meter_id'),
    /** Register (running total, consumption is the difference) or instantaneous (hourly average). */
    readingKind: text('reading_kind', { enum: ['register', 'instantaneous'] }).notNull(),
  },
  (t) => [
    index('mpoints_apartment_idx').on(t.apartmentId, t.quantity),
    index('mpoints_property_idx').on(t.propertyId, t.quantity),
  ],
);

export const meters = pgTable(
  'meters',
  {
    id: serial('id').primaryKey(),
    measurementPointId: integer('measurement_point_id')
      .notNull()
      .references(() => measurementPoints.id),
    /** The serial number printed on the meter; what import files name. Unique. */
    number: text('number').notNull().unique(),
    /** Legacy meter-kind name (coldwater, energy, radiator, …). */
    legacyKind: text('legacy_kind').notNull(),
    installedAt: timestamp('installed_at', { withTimezone: true }).notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    /**
     * The meter's radio (wM-Bus) id, as a reader such as wmbusmeters reports it in a telegram's `id`; set by
     * the operator (`npm run cli -- meter radio-id`). Unique; null when the meter is not read by radio.
     */
    radioId: text('radio_id').unique(),
    /**
     * Profile: the register's digits before the decimal point when it rolls over at its maximum (5 digits:
     * after 99999 comes 0). Null: it never rolls over (a drop is a reset or a misread).
     */
    rolloverDigits: integer('rollover_digits'),
    /**
     * Profile: the yearly billing date (`MM-DD`) on which the register resets to zero (heat-cost allocators).
     * A drop across that date is a scheduled reset, not a misread. Null: no scheduled reset.
     */
    resetOn: text('reset_on'),
    /**
     * The newest reading's time, kept by a statement-level trigger on register_readings (migration
     * portfolio_freshness), so the console's portfolio reads freshness without scanning readings.
     */
    lastReadingAt: timestamp('last_reading_at', { withTimezone: true }),
  },
  (t) => [
    index('meters_mpoint_idx').on(t.measurementPointId),
    check('meters_rollover_digits', sql`${t.rolloverDigits} BETWEEN 1 AND 12`),
    check('meters_reset_on', sql`${t.resetOn} ~ '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$'`),
  ],
);

/** Raw readings as received: register value (running total) or instantaneous sample. */
export const registerReadings = pgTable(
  'register_readings',
  {
    meterId: integer('meter_id')
      .notNull()
      .references(() => meters.id),
    ts: timestamp('ts', { withTimezone: true }).notNull(),
    value: numeric('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.meterId, t.ts] })],
);

/** Consumption (or hourly average) per measurement point for the hour starting at hour_start (UTC). */
export const hourlyConsumption = pgTable(
  'hourly_consumption',
  {
    measurementPointId: integer('measurement_point_id')
      .notNull()
      .references(() => measurementPoints.id),
    hourStart: timestamp('hour_start', { withTimezone: true }).notNull(),
    value: numeric('value').notNull(),
    /**
     * Filled in, not measured: the hour lies in an interval longer than one hour between two readings (readings
     * are missing there), and holds its share of that interval's rise. A reading that arrives inside the interval
     * recomputes the hour, and clears the flag where the hour is then measured.
     */
    estimated: boolean('estimated').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.measurementPointId, t.hourStart] })],
);

const rollupColumns = () => ({
  sum: numeric('sum').notNull(),
  min: numeric('min').notNull(),
  max: numeric('max').notNull(),
  /** Number of hourly values; avg = sum / count. */
  count: integer('count').notNull(),
  /** How many of those hourly values are estimated (hourly_consumption.estimated). */
  estimated: integer('estimated').notNull().default(0),
});

/** Per point per Europe/Copenhagen day. */
export const dailyRollups = pgTable(
  'daily_rollups',
  {
    measurementPointId: integer('measurement_point_id')
      .notNull()
      .references(() => measurementPoints.id),
    day: date('day', { mode: 'string' }).notNull(),
    ...rollupColumns(),
  },
  (t) => [primaryKey({ columns: [t.measurementPointId, t.day] })],
);

/** Per point per Europe/Copenhagen month; `month` is the first day of the month. */
export const monthlyRollups = pgTable(
  'monthly_rollups',
  {
    measurementPointId: integer('measurement_point_id')
      .notNull()
      .references(() => measurementPoints.id),
    month: date('month', { mode: 'string' }).notNull(),
    ...rollupColumns(),
  },
  (t) => [primaryKey({ columns: [t.measurementPointId, t.month] })],
);

/**
 * Per property, quantity and day: the sum over the property's apartment points, and that sum per m²
 * of the apartments that had data that day. Used for "compare with property".
 */
export const propertyDailyRollups = pgTable(
  'property_daily_rollups',
  {
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id),
    quantity: text('quantity').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    sum: numeric('sum').notNull(),
    areaM2: numeric('area_m2').notNull(),
    perM2: numeric('per_m2').notNull(),
    /** Number of hourly values summed; avg = sum / count (for averaged quantities such as temperature). */
    count: integer('count').notNull(),
    /** Number of apartments with data that day; their area is `areaM2`. */
    apartments: integer('apartments').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.propertyId, t.quantity, t.day] })],
);

/**
 * Per property, quantity and hour: the sum over the property's apartment points, the area of the apartments with
 * data that hour and how many they were. Read by "compare with property" at HOUR (src/server/ingest/propertyHourly.ts).
 */
export const propertyHourlyRollups = pgTable(
  'property_hourly_rollups',
  {
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id),
    quantity: text('quantity').notNull(),
    hourStart: timestamp('hour_start', { withTimezone: true }).notNull(),
    sum: numeric('sum').notNull(),
    /** The area of the apartments with data that hour. */
    areaM2: numeric('area_m2').notNull(),
    /** Number of hourly values summed; avg = sum / count (for averaged quantities such as temperature). */
    count: integer('count').notNull(),
    /** Number of apartments with data that hour. */
    apartments: integer('apartments').notNull(),
  },
  (t) => [primaryKey({ columns: [t.propertyId, t.quantity, t.hourStart] })],
);

/** Unit price per quantity, valid from a date (inclusive) to a date (exclusive) or open-ended. */
export const prices = pgTable(
  'prices',
  {
    id: serial('id').primaryKey(),
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id, { onDelete: 'cascade' }),
    quantity: text('quantity').notNull(),
    price: numeric('price').notNull(),
    currency: text('currency').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }),
  },
  (t) => [index('prices_property_quantity_idx').on(t.propertyId, t.quantity, t.validFrom)],
);

/** Opaque refresh tokens, stored as SHA-256 hashes; rotated on use, reuse revokes the family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    /** Which backend issued it: account, tenant or admin (the operator console). */
    backend: text('backend', { enum: ['account', 'tenant', 'admin'] }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** A hard end for the whole family (impersonation: 60 minutes); rotation never goes past it. */
    sessionEndsAt: timestamp('session_ends_at', { withTimezone: true }),
  },
  (t) => [
    index('refresh_tokens_user_idx').on(t.userId),
    uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
);

/** Mail that is not sent through SMTP (SMTP_URL unset) lands here, and in the log. */
export const mailOutbox = pgTable('mail_outbox', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  /** The plain-text part. */
  body: text('body').notNull(),
  html: text('html'),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

/** Small key/value facts about the installation (demo seed version, last catch-up hour). */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});

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
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('allocation_statements_period_uq').on(t.tenancyId, t.periodStart, t.periodEnd),
    check('allocation_statements_period_order', sql`${t.periodStart} <= ${t.periodEnd}`),
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
  },
  (t) => [primaryKey({ columns: [t.radioId, t.reason] })],
);

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

/** Accounts, users, properties, apartments, tenancies and their invitations and activation codes. */
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
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

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

/**
 * Grams of CO₂ per unit of a quantity, valid from a date (inclusive) to a date (exclusive) or open-ended, as
 * prices. `validFrom` null: valid from the beginning (the factors from before validity dates, migration 0016).
 */
export const propertyCo2Factors = pgTable(
  'property_co2_factors',
  {
    id: serial('id').primaryKey(),
    propertyId: integer('property_id')
      .notNull()
      .references(() => properties.id, { onDelete: 'cascade' }),
    quantity: text('quantity').notNull(),
    gramPerQuantityUnit: numeric('gram_per_quantity_unit').notNull(),
    validFrom: date('valid_from', { mode: 'string' }),
    validTo: date('valid_to', { mode: 'string' }),
  },
  (t) => [
    unique('property_co2_factors_series_start_uq')
      .on(t.propertyId, t.quantity, t.validFrom)
      .nullsNotDistinct(),
  ],
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

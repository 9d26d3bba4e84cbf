/** Measurement points, meters, readings, hourly consumption, rollups and prices. */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { apartments, properties } from './tenancies.ts';

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

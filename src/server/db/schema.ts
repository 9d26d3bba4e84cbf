/**
 * The one Drizzle schema, for PGlite and PostgreSQL alike.
 * Timestamps are UTC (`timestamptz`); `day`/`month` columns are Europe/Copenhagen calendar dates.
 * Consumption and money are `numeric`, so sums stay exact; rounding happens only for display.
 */

export * from './schema/alarms.ts';
export * from './schema/auth.ts';
export * from './schema/ingest.ts';
export * from './schema/operator.ts';
export * from './schema/readings.ts';
export * from './schema/statements.ts';
export * from './schema/tenancies.ts';

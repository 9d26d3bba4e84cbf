/**
 * Who may see what: a user sees an apartment (unit) and its measurement points only through a tenancy they
 * are a member of, and only the data inside that tenancy's dates, so a new tenant never sees the previous
 * tenant's consumption. Unknown ids and other tenants' ids get the same FORBIDDEN error. After an ended
 * tenancy's grace period (grace.ts) it gives its members nothing at all.
 */
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { LRUCache } from 'lru-cache';
import { Temporal } from 'temporal-polyfill';
import { TIME_ZONE } from '../../lib/periods.ts';
import { DEFAULT_HOT_WATER_SHARE } from '../../lib/reportSettings.ts';
import type { Db } from '../db/client.ts';
import {
  apartments,
  measurementPoints,
  properties,
  propertyReportSettings,
  tenancies,
  tenancyMembers,
  users,
} from '../db/schema.ts';
import { pgNumberArray, pgTextArray } from '../db/sql.ts';
import { requireValidToken, type TokenClaim, type TokenUser } from '../graphql/context.ts';
import { forbidden } from '../graphql/errors.ts';
import { tenancyAccessOpen } from './grace.ts';

/** Dates of a tenancy as local midnights; `to` is exclusive, null while the tenancy runs. */
interface TenancyWindow {
  from: Temporal.ZonedDateTime;
  to: Temporal.ZonedDateTime | null;
}

/** An apartment the caller may see, its property, and the windows of their tenancies there. */
export interface UnitAccess {
  apartment: typeof apartments.$inferSelect;
  property: typeof properties.$inferSelect;
  /** The tenant's name on the caller's latest tenancy there. */
  tenant: string;
  /** In order, not overlapping: a gap between two of the caller's tenancies was someone else's. */
  windows: TenancyWindow[];
  /** The property's settings the consumption figures use (property_report_settings, defaults without a row). */
  settings: PropertyFigureSettings;
}

/** The per-property settings read with the caller's access (no extra statement). */
interface PropertyFigureSettings {
  hotWaterShare: number;
  hcaKwhPerUnit: number | null;
}

/** The settings columns, selected beside each access row (left joined: a property may have no row). */
const settingsColumns = {
  hotWaterShare: propertyReportSettings.hotWaterShare,
  hcaKwhPerUnit: propertyReportSettings.hcaKwhPerUnit,
};

function figureSettings(row: { hotWaterShare: string | null; hcaKwhPerUnit: string | null } | null) {
  return {
    hotWaterShare: row?.hotWaterShare == null ? DEFAULT_HOT_WATER_SHARE : Number(row.hotWaterShare),
    hcaKwhPerUnit: row?.hcaKwhPerUnit == null ? null : Number(row.hcaKwhPerUnit),
  };
}

/**
 * The caller's units by apartment id, in the order of their first tenancy there. With several tenancies in
 * one apartment, overlapping or adjoining ones merge into one window, and the latest names the tenant.
 */
function accessQuery<Extra extends Record<string, SQL> = Record<never, never>>(
  db: Db,
  where: SQL | undefined,
  extra?: Extra,
) {
  return db
    .select({
      apartment: apartments,
      property: properties,
      tenant: tenancies.tenant,
      start: tenancies.start,
      end: tenancies.end,
      settings: settingsColumns,
      ...(extra as Extra),
    })
    .from(tenancyMembers)
    .innerJoin(tenancies, eq(tenancies.id, tenancyMembers.tenancyId))
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .innerJoin(properties, eq(properties.id, apartments.propertyId))
    .leftJoin(propertyReportSettings, eq(propertyReportSettings.propertyId, properties.id))
    .where(and(where, tenancyAccessOpen))
    .orderBy(asc(tenancies.start), asc(tenancies.id));
}

/**
 * Local midnight of a date (or of the day after), remembered: tenancy dates repeat on every request of a
 * tenant, and ZonedDateTime values are immutable, so they can be shared. Up to 10,000, least recently used out.
 */
const midnights = new LRUCache<string, Temporal.ZonedDateTime>({ max: 10_000 });
function localMidnight(date: string, dayAfter: boolean): Temporal.ZonedDateTime {
  const key = dayAfter ? `${date}+1` : date;
  let value = midnights.get(key);
  if (!value) {
    const day = Temporal.PlainDate.from(date);
    value = (dayAfter ? day.add({ days: 1 }) : day).toZonedDateTime(TIME_ZONE);
    midnights.set(key, value);
  }
  return value;
}

async function loadAccess(db: Db, userId: number, only: SQL): Promise<Map<number, UnitAccess>> {
  return accessFromRows(await accessQuery(db, and(eq(tenancyMembers.userId, userId), only)));
}

export type AccessRow = Pick<
  Awaited<ReturnType<typeof accessQuery>>[number],
  'apartment' | 'property' | 'tenant' | 'start' | 'end' | 'settings'
>;

/** The caller's units from the access query's rows (in tenancy order), with merged windows. */
export function accessFromRows(rows: AccessRow[]): Map<number, UnitAccess> {
  const access = new Map<number, UnitAccess>();
  for (const { start, end, apartment, property, tenant, settings } of rows) {
    const row = { apartment, property, tenant, settings: figureSettings(settings) };
    const from = localMidnight(start, false);
    // The end date is the last day of the tenancy, so data runs to the next midnight.
    const to = end ? localMidnight(end, true) : null;
    const seen = access.get(row.apartment.id);
    if (!seen) {
      access.set(row.apartment.id, { ...row, windows: [{ from, to }] });
      continue;
    }
    // Rows come by start date, so this is the latest tenancy so far.
    seen.tenant = row.tenant;
    const last = seen.windows.at(-1)!;
    if (last.to === null) continue;
    if (Temporal.ZonedDateTime.compare(from, last.to) > 0) seen.windows.push({ from, to });
    else if (!to || Temporal.ZonedDateTime.compare(to, last.to) > 0) last.to = to;
  }
  return access;
}

/** A measurement point as `callerUnitsAndPoints` returns it. */
export interface OwnPoint {
  id: number;
  apartmentId: number | null;
  propertyId: number;
  quantity: string;
}

/**
 * The caller's units (callerTenancies.ts has them with their tenancy ids) and, in the same statement, the points of the given quantities in those of the caller's units
 * that are asked for (`unitIds`) and the property-level points (no apartment) of those of the caller's
 * properties that are asked for (`sourceIds`). Points are only looked for in the caller's own apartments and
 * properties, so nothing of another tenancy is read; ids that are not the caller's simply find nothing (the
 * access check on the returned units refuses them). One round trip instead of two for tenantGraph.
 *
 * The statement starts from the caller's user row, so it also checks a token whose user is not checked yet
 * (`claim`, from tokenToCheck): it throws, as requireUserId would, before anything it read is used.
 */
export async function callerUnitsAndPoints(
  db: Db,
  caller: { userId: number; claim: TokenClaim | null },
  wanted: { quantities: string[]; unitIds: number[]; sourceIds: number[] },
): Promise<{ units: Map<number, UnitAccess>; points: OwnPoint[] }> {
  let prepared = unitsAndPointsQueries.get(db);
  if (!prepared) {
    prepared = prepareUnitsAndPoints(db);
    unitsAndPointsQueries.set(db, prepared);
  }
  const rows = await prepared.execute({
    userId: caller.userId,
    quantities: pgTextArray(wanted.quantities),
    unitIds: pgNumberArray(wanted.unitIds),
    sourceIds: pgNumberArray(wanted.sourceIds),
  });
  // No row: no such user. Every row carries the user's columns.
  const user: TokenUser | undefined = rows[0];
  requireValidToken(user, caller.claim);
  const points = new Map<number, OwnPoint>();
  const tenancyRows: AccessRow[] = [];
  for (const row of rows) {
    // The user's row alone (no tenancy) has no apartment; the joins' foreign keys give every other row all parts.
    if (!row.apartment || !row.property || row.start === null) continue;
    const list = (typeof row.points === 'string' ? JSON.parse(row.points) : row.points) as OwnPoint[] | null;
    for (const p of list ?? []) points.set(p.id, p);
    tenancyRows.push({
      apartment: row.apartment,
      property: row.property,
      tenant: row.tenant!,
      start: row.start,
      end: row.end,
      settings: row.settings,
    });
  }
  return { units: accessFromRows(tenancyRows), points: [...points.values()] };
}

/**
 * A prepared statement over the caller's rows (placeholder `userId`): from the user's row through their tenancies
 * still open to them (tenancyAccessOpen) to the apartments, properties and report settings, oldest tenancy first,
 * with `extra` columns beside. Left joins, as accessQuery's inner ones but from the user's row, so a user without
 * tenancies still gets their one row and the token is checked on it (callerTenancies.ts, callerUnitsAndPoints).
 */
export function prepareCallerRows<T extends SelectedFields>(db: Db, name: string, extra: T) {
  return db
    .select({
      isActive: users.isActive,
      tokensValidAfter: users.tokensValidAfter,
      apartment: apartments,
      property: properties,
      tenant: tenancies.tenant,
      start: tenancies.start,
      end: tenancies.end,
      settings: settingsColumns,
      ...extra,
    })
    .from(users)
    .leftJoin(tenancyMembers, eq(tenancyMembers.userId, users.id))
    .leftJoin(tenancies, and(eq(tenancies.id, tenancyMembers.tenancyId), tenancyAccessOpen))
    .leftJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .leftJoin(properties, eq(properties.id, apartments.propertyId))
    .leftJoin(propertyReportSettings, eq(propertyReportSettings.propertyId, properties.id))
    .where(eq(users.id, sql.placeholder('userId')))
    .orderBy(asc(tenancies.start), asc(tenancies.id))
    .prepare(name);
}

const unitsAndPointsQueries = new WeakMap<Db, ReturnType<typeof prepareUnitsAndPoints>>();
function prepareUnitsAndPoints(db: Db) {
  const mp = measurementPoints;
  // Two index range reads (the unit's points, the property's own points), not one OR: with the OR, PostgreSQL read
  // every point of the database per tenancy row, which grew with the properties' size (docs/scale.md).
  const points = sql<OwnPoint[] | string | null>`(SELECT json_agg(json_build_object('id', o.id,
      'apartmentId', o.apartment_id, 'propertyId', o.property_id, 'quantity', o.quantity))
    FROM (SELECT ${mp.id}, ${mp.apartmentId}, ${mp.propertyId}, ${mp.quantity} FROM ${mp}
           WHERE ${mp.apartmentId} = ${apartments.id} AND ${mp.quantity} = ANY(${sql.placeholder('quantities')}::text[])
             AND ${apartments.id} = ANY(${sql.placeholder('unitIds')}::int[])
          UNION ALL
          SELECT ${mp.id}, ${mp.apartmentId}, ${mp.propertyId}, ${mp.quantity} FROM ${mp}
           WHERE ${mp.propertyId} = ${properties.id} AND ${mp.apartmentId} IS NULL
             AND ${mp.quantity} = ANY(${sql.placeholder('quantities')}::text[])
             AND ${properties.id} = ANY(${sql.placeholder('sourceIds')}::int[])) o)`;
  return prepareCallerRows(db, 'caller_units_and_points', { points });
}

/** The caller's access to each of these apartments; throws FORBIDDEN if any is not theirs. */
export async function unitAccess(
  db: Db,
  userId: number,
  apartmentIds: number[],
): Promise<Map<number, UnitAccess>> {
  const wanted = [...new Set(apartmentIds)];
  if (wanted.length === 0) return new Map();
  const access = await loadAccess(db, userId, inArray(tenancies.apartmentId, wanted));
  for (const id of wanted) if (!access.has(id)) throw forbidden();
  return access;
}

/** The parts of [from, to) inside the caller's tenancy windows; empty when none overlaps. */
export function clipToTenancies(
  range: { from: Temporal.ZonedDateTime; to: Temporal.ZonedDateTime },
  access: UnitAccess,
): { from: Temporal.ZonedDateTime; to: Temporal.ZonedDateTime }[] {
  const later = (a: Temporal.ZonedDateTime, b: Temporal.ZonedDateTime) =>
    Temporal.ZonedDateTime.compare(a, b) >= 0 ? a : b;
  const earlier = (a: Temporal.ZonedDateTime, b: Temporal.ZonedDateTime) =>
    Temporal.ZonedDateTime.compare(a, b) <= 0 ? a : b;
  return access.windows.flatMap((w) => {
    const from = later(range.from, w.from);
    const to = w.to ? earlier(range.to, w.to) : range.to;
    return Temporal.ZonedDateTime.compare(from, to) < 0 ? [{ from, to }] : [];
  });
}

/** Windows in order with overlapping or adjoining ones merged (so no day is read twice). */
function mergeWindows(windows: TenancyWindow[]): TenancyWindow[] {
  const sorted = [...windows].sort((a, b) => Temporal.ZonedDateTime.compare(a.from, b.from));
  const merged: TenancyWindow[] = [];
  for (const w of sorted) {
    const last = merged.at(-1);
    if (!last || (last.to !== null && Temporal.ZonedDateTime.compare(w.from, last.to) > 0)) {
      merged.push({ ...w });
      continue;
    }
    if (last.to === null) continue;
    if (w.to === null || Temporal.ZonedDateTime.compare(w.to, last.to) > 0) last.to = w.to;
  }
  return merged;
}

/**
 * The caller's access to a property, for its property-wide figures (PROPERTY, SOURCE): the property and the
 * union of the caller's tenancy windows in its apartments. FORBIDDEN when the caller has no unit there.
 */
export function propertyAccess(
  units: Map<number, UnitAccess>,
  propertyId: number,
): { property: UnitAccess['property']; access: UnitAccess } {
  const mine = [...units.values()].filter((u) => u.property.id === propertyId);
  if (mine.length === 0) throw forbidden();
  const first = mine[0]!;
  return {
    property: first.property,
    access: { ...first, windows: mergeWindows(mine.flatMap((u) => u.windows)) },
  };
}

/**
 * Tenancies in the console (issue 21): an operator moves a tenant out (the last day, and the interim reading of
 * every register meter of the flat at the change, HeizkostenV §9b) and a new one in, in one transaction each,
 * audited. What the members then see is the tenant backend's business: access.ts clips their data to the
 * tenancy's dates and grace.ts ends it all after the grace period; the alarm evaluator and the monthly report
 * read only days inside the dates, so after move-out no alarm fires and no notice goes out about the flat.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { TIME_ZONE } from '../../lib/periods.ts';
import type { Db } from '../db/client.ts';
import {
  accounts,
  apartments,
  measurementPoints,
  meters,
  tenancies,
  tenancyInterimReadings,
  tenancyMembers,
  users,
} from '../db/schema.ts';
import { iso, queryRows } from '../db/sql.ts';
import { badInput, forbidden } from '../graphql/errors.ts';
import { accessEndsAt } from '../tenant/grace.ts';
import { type Actor, recordAudit } from './audit.ts';
import { opsError } from './opsErrors.ts';
import { type OperatorScope, requireProperty } from './scope.ts';

/** A tenancy as the console shows it. */
export interface TenancyView {
  id: number;
  reference: string;
  tenant: string;
  apartmentId: number;
  propertyId: number;
  start: string;
  end: string | null;
  accessEndsAt: string | null;
  members: { userId: number; email: string; name: string; isAdmin: boolean }[];
  interimReadings: {
    meterNumber: string;
    quantity: string;
    at: string;
    value: string | null;
    readingTs: string | null;
    source: 'meter' | 'operator' | 'missing';
  }[];
}

/** An ISO date (YYYY-MM-DD) that exists; BAD_USER_INPUT otherwise. */
function isoDay(raw: string, name: string): Temporal.PlainDate {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) throw badInput(`${name} must be a date (YYYY-MM-DD)`);
  try {
    return Temporal.PlainDate.from(raw, { overflow: 'reject' });
  } catch {
    throw badInput(`${name} must be a date that exists`);
  }
}

/** The change of tenant after a last day: the next local midnight. */
const changeAt = (lastDay: Temporal.PlainDate) =>
  new Date(lastDay.add({ days: 1 }).toZonedDateTime(TIME_ZONE).epochMilliseconds);

const idOf = (raw: string | number): number => {
  const id = typeof raw === 'number' ? raw : /^\d{1,9}$/.test(raw) ? Number(raw) : null;
  if (id === null) throw forbidden();
  return id;
};

/** The apartment, when the caller reaches its property; FORBIDDEN otherwise (also for unknown ids). */
async function requireApartment(db: Db, scope: OperatorScope, rawId: string | number) {
  const [apartment] = await db
    .select()
    .from(apartments)
    .where(eq(apartments.id, idOf(rawId)));
  if (!apartment) throw forbidden();
  await requireProperty(db, scope, apartment.propertyId);
  return apartment;
}

/** The tenancy and its apartment, when the caller reaches its property; FORBIDDEN otherwise. */
export async function requireTenancy(db: Db, scope: OperatorScope, rawId: string | number) {
  const [row] = await db
    .select({ tenancy: tenancies, apartment: apartments })
    .from(tenancies)
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .where(eq(tenancies.id, idOf(rawId)));
  if (!row) throw forbidden();
  await requireProperty(db, scope, row.apartment.propertyId);
  return row;
}

/** The console's view of these tenancies (three statements, whatever their number). */
export async function tenancyViews(db: Db, where: { apartmentIds?: number[]; ids?: number[] }) {
  const condition = where.ids
    ? inArray(tenancies.id, [...where.ids, -1])
    : inArray(tenancies.apartmentId, [...(where.apartmentIds ?? []), -1]);
  const rows = await db
    .select({ tenancy: tenancies, propertyId: apartments.propertyId, accessEndsAt })
    .from(tenancies)
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .where(condition)
    .orderBy(asc(tenancies.start), asc(tenancies.id));
  const ids = [...rows.map((r) => r.tenancy.id), -1];
  const members = await db
    .select({
      tenancyId: tenancyMembers.tenancyId,
      userId: users.id,
      email: users.email,
      name: users.name,
      isAdmin: tenancyMembers.isAdmin,
    })
    .from(tenancyMembers)
    .innerJoin(users, eq(users.id, tenancyMembers.userId))
    .where(inArray(tenancyMembers.tenancyId, ids))
    .orderBy(asc(users.email));
  const readings = await db
    .select({
      tenancyId: tenancyInterimReadings.tenancyId,
      meterNumber: meters.number,
      quantity: measurementPoints.quantity,
      at: tenancyInterimReadings.at,
      value: tenancyInterimReadings.value,
      readingTs: tenancyInterimReadings.readingTs,
      source: tenancyInterimReadings.source,
    })
    .from(tenancyInterimReadings)
    .innerJoin(meters, eq(meters.id, tenancyInterimReadings.meterId))
    .innerJoin(measurementPoints, eq(measurementPoints.id, meters.measurementPointId))
    .where(inArray(tenancyInterimReadings.tenancyId, ids))
    .orderBy(asc(measurementPoints.quantity), asc(meters.number));
  return rows.map(
    ({ tenancy, propertyId, accessEndsAt: ends }): TenancyView => ({
      id: tenancy.id,
      reference: tenancy.tenancyId,
      tenant: tenancy.tenant,
      apartmentId: tenancy.apartmentId,
      propertyId,
      start: tenancy.start,
      end: tenancy.end,
      accessEndsAt: iso(ends),
      members: members.filter((m) => m.tenancyId === tenancy.id).map(({ tenancyId: _t, ...m }) => m),
      interimReadings: readings
        .filter((r) => r.tenancyId === tenancy.id)
        .map(({ tenancyId: _t, at, readingTs, ...r }) => ({
          ...r,
          at: at.toISOString(),
          readingTs: iso(readingTs),
        })),
    }),
  );
}

export async function tenancyView(db: Db, id: number): Promise<TenancyView> {
  const [view] = await tenancyViews(db, { ids: [id] });
  if (!view) throw forbidden();
  return view;
}

/** Locks the apartment's row, so two moves in one flat are taken one after the other. */
async function lockApartment(tx: Db, apartmentId: number) {
  await tx.execute(sql`SELECT id FROM apartments WHERE id = ${apartmentId} FOR UPDATE`);
}

/** The other tenancies of the apartment. */
const neighbours = (tx: Db, apartmentId: number, except: number) =>
  tx
    .select()
    .from(tenancies)
    .where(and(eq(tenancies.apartmentId, apartmentId), sql`${tenancies.id} <> ${except}`));

/**
 * Sets a tenancy's last day and records the interim readings at the change: the operator's on-site readings
 * where given, else each meter's own latest reading at or before the change, else `missing`. Changing the last
 * day again records them again for the new date. Refused when a later tenancy of the flat starts on or before
 * the last day (the flat would have two tenants on one day).
 */
export async function moveOut(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { tenancyId: string; lastDay: string; readings?: { meterNumber: string; value: string }[] | null },
): Promise<TenancyView> {
  const { tenancy, apartment } = await requireTenancy(db, scope, input.tenancyId);
  const lastDay = isoDay(input.lastDay, 'lastDay');
  if (Temporal.PlainDate.compare(lastDay, Temporal.PlainDate.from(tenancy.start)) < 0)
    throw badInput('lastDay must not be before the tenancy’s first day');
  const typed = new Map<string, string>();
  for (const r of input.readings ?? []) {
    const value = r.value.trim();
    if (!/^\d{1,12}(\.\d{1,6})?$/.test(value))
      throw badInput(`The reading of meter ${r.meterNumber} must be a number of at least 0`);
    if (typed.has(r.meterNumber)) throw badInput(`Meter ${r.meterNumber} is given twice`);
    typed.set(r.meterNumber, value);
  }
  const at = changeAt(lastDay);
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    await lockApartment(tx, apartment.id);
    for (const other of await neighbours(tx, apartment.id, tenancy.id)) {
      if (other.start > tenancy.start && other.start <= lastDay.toString())
        throw opsError(
          'TENANCY_OVERLAP',
          `Tenancy ${other.tenancyId} of the flat starts on ${other.start}: the last day must be before it`,
        );
    }
    const flatMeters = await queryRows<{
      id: number;
      number: string;
      value: string | null;
      ts: Date | string | null;
    }>(
      tx,
      sql`SELECT m.id, m.number, r.value::text AS value, r.ts
            FROM meters m JOIN measurement_points mp ON mp.id = m.measurement_point_id
            LEFT JOIN LATERAL (SELECT value, ts FROM register_readings
              WHERE meter_id = m.id AND ts <= ${at.toISOString()}::timestamptz ORDER BY ts DESC LIMIT 1) r ON true
           WHERE mp.apartment_id = ${apartment.id} AND mp.reading_kind = 'register'
             AND m.installed_at < ${at.toISOString()}::timestamptz
             AND (m.removed_at IS NULL OR m.removed_at >= ${at.toISOString()}::timestamptz)
           ORDER BY m.number`,
    );
    for (const number of typed.keys())
      if (!flatMeters.some((m) => m.number === number))
        throw opsError(
          'NOT_A_METER_OF_THE_FLAT',
          `Meter ${number} is not a register meter of this flat at the change of tenant`,
        );
    const before = { end: tenancy.end };
    await tx.update(tenancies).set({ end: lastDay.toString() }).where(eq(tenancies.id, tenancy.id));
    await tx.delete(tenancyInterimReadings).where(eq(tenancyInterimReadings.tenancyId, tenancy.id));
    const rows = flatMeters.map((m) => {
      const given = typed.get(m.number);
      if (given !== undefined)
        return { meterId: m.id, value: given, readingTs: at, source: 'operator' as const };
      if (m.value !== null)
        return { meterId: m.id, value: m.value, readingTs: new Date(m.ts!), source: 'meter' as const };
      return { meterId: m.id, value: null, readingTs: null, source: 'missing' as const };
    });
    if (rows.length > 0)
      await tx
        .insert(tenancyInterimReadings)
        .values(rows.map((r) => ({ ...r, tenancyId: tenancy.id, at, createdBy: who.actor })));
    await recordAudit(tx, who, {
      action: 'tenancy.move_out',
      subjectType: 'tenancy',
      subjectId: tenancy.id,
      propertyId: apartment.propertyId,
      before,
      after: {
        end: lastDay.toString(),
        interimReadings: rows.map((r) => ({
          meter: flatMeters.find((m) => m.id === r.meterId)!.number,
          value: r.value,
          source: r.source,
        })),
      },
    });
  });
  return tenancyView(db, tenancy.id);
}

/** A new tenancy in a flat, starting after every other tenancy there has ended. */
export async function moveIn(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { apartmentId: string; reference: string; tenant?: string | null; firstDay: string },
): Promise<TenancyView> {
  const apartment = await requireApartment(db, scope, input.apartmentId);
  const firstDay = isoDay(input.firstDay, 'firstDay').toString();
  const reference = input.reference.trim();
  if (!reference || reference.length > 100) throw badInput('reference must be 1–100 characters');
  const tenant = (input.tenant ?? '').trim().slice(0, 200);
  const id = await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    await lockApartment(tx, apartment.id);
    for (const other of await neighbours(tx, apartment.id, -1)) {
      if (other.end === null || other.end >= firstDay || other.start >= firstDay)
        throw opsError(
          'TENANCY_OVERLAP',
          other.end === null
            ? `Tenancy ${other.tenancyId} of the flat has no last day: move that tenant out first`
            : `Tenancy ${other.tenancyId} of the flat runs to ${other.end}: the first day must be after it`,
        );
    }
    const [taken] = await tx
      .select({ id: tenancies.id })
      .from(tenancies)
      .where(eq(tenancies.tenancyId, reference));
    if (taken) throw opsError('TENANCY_REFERENCE_TAKEN', `A tenancy ${reference} exists already`);
    const [row] = await tx
      .insert(tenancies)
      .values({ apartmentId: apartment.id, tenancyId: reference, tenant, start: firstDay })
      .returning({ id: tenancies.id });
    await recordAudit(tx, who, {
      action: 'tenancy.move_in',
      subjectType: 'tenancy',
      subjectId: row!.id,
      propertyId: apartment.propertyId,
      after: { apartmentId: apartment.id, reference, tenant, start: firstDay },
    });
    return row!.id;
  });
  return tenancyView(db, id);
}

/** The organisation's grace period after move-out, in months. */
export async function graceMonths(db: Db, accountId: number): Promise<number> {
  const [row] = await db
    .select({ months: accounts.moveOutGraceMonths })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  return row?.months ?? 12;
}

/** Sets the organisation's grace period (0–120 months); audited. */
export async function setGraceMonths(db: Db, who: Actor, accountId: number, months: number) {
  if (!Number.isInteger(months) || months < 0 || months > 120)
    throw badInput('months must be a whole number from 0 to 120');
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const before = await graceMonths(tx, accountId);
    await tx.update(accounts).set({ moveOutGraceMonths: months }).where(eq(accounts.id, accountId));
    await recordAudit(tx, who, {
      action: 'organisation.move_out_grace',
      subjectType: 'organisation',
      subjectId: accountId,
      before: { months: before },
      after: { months },
    });
  });
  return months;
}

/** `allTenanciesForCurrentUser`: every tenancy the caller is a member of, with every field of SPEC §3. */
import { and, asc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  apartments,
  dailyRollups,
  measurementPoints,
  meters,
  properties,
  tenancies,
  tenancyMembers,
} from '../../db/schema.ts';
import { requireUserId } from '../../graphql/context.ts';
import { tenancyAccessOpen } from '../../tenant/grace.ts';
import type { DateRange, MeterUnit, QueryResolvers } from '../types.generated.ts';

/** First and last day with data for each tenancy's apartment, within the tenancy's dates. */
async function dataAvailability(db: Db, tenancyIds: number[]): Promise<Map<number, DateRange>> {
  if (tenancyIds.length === 0) return new Map();
  const rows = await db
    .select({
      tenancyId: tenancies.id,
      start: sql<string | null>`min(${dailyRollups.day})::text`,
      end: sql<string | null>`max(${dailyRollups.day})::text`,
    })
    .from(tenancies)
    .innerJoin(measurementPoints, eq(measurementPoints.apartmentId, tenancies.apartmentId))
    .innerJoin(dailyRollups, eq(dailyRollups.measurementPointId, measurementPoints.id))
    .where(
      and(
        inArray(tenancies.id, tenancyIds),
        gte(dailyRollups.day, tenancies.start),
        or(isNull(tenancies.end), lte(dailyRollups.day, tenancies.end)),
      ),
    )
    .groupBy(tenancies.id);
  return new Map(rows.map((r) => [r.tenancyId, { start: r.start, end: r.end }]));
}

/** The legacy meter kinds and units of each apartment's meters. */
async function meterUnits(db: Db, apartmentIds: number[]): Promise<Map<number, MeterUnit[]>> {
  const byApartment = new Map<number, MeterUnit[]>();
  if (apartmentIds.length === 0) return byApartment;
  const rows = await db
    .selectDistinct({
      apartmentId: measurementPoints.apartmentId,
      kind: meters.legacyKind,
      unit: measurementPoints.unit,
    })
    .from(meters)
    .innerJoin(measurementPoints, eq(measurementPoints.id, meters.measurementPointId))
    .where(inArray(measurementPoints.apartmentId, apartmentIds))
    .orderBy(asc(meters.legacyKind), asc(measurementPoints.unit));
  for (const row of rows) {
    if (row.apartmentId === null) continue;
    const list = byApartment.get(row.apartmentId) ?? [];
    list.push({ kind: row.kind, unit: row.unit });
    byApartment.set(row.apartmentId, list);
  }
  return byApartment;
}

export const allTenanciesForCurrentUser: NonNullable<QueryResolvers['allTenanciesForCurrentUser']> = async (
  _parent,
  _args,
  ctx,
) => {
  const userId = requireUserId(ctx);
  const rows = await ctx.db
    .select({
      tenancy: tenancies,
      apartment: apartments,
      propertyNumber: properties.number,
      isAdmin: tenancyMembers.isAdmin,
    })
    .from(tenancyMembers)
    .innerJoin(tenancies, eq(tenancies.id, tenancyMembers.tenancyId))
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .innerJoin(properties, eq(properties.id, apartments.propertyId))
    // An ended tenancy drops out of the list once its grace period is over (tenant/grace.ts).
    .where(and(eq(tenancyMembers.userId, userId), tenancyAccessOpen))
    .orderBy(asc(tenancies.start), asc(tenancies.id));
  const availability = await dataAvailability(
    ctx.db,
    rows.map((r) => r.tenancy.id),
  );
  const units = await meterUnits(ctx.db, [...new Set(rows.map((r) => r.apartment.id))]);
  return rows.map(({ tenancy, apartment, propertyNumber, isAdmin }) => ({
    id: String(tenancy.id),
    propertyNumber,
    tenancyId: tenancy.tenancyId,
    tenant: tenancy.tenant,
    start: tenancy.start,
    end: tenancy.end,
    useNewBackend: tenancy.useNewBackend,
    dataAvailability: availability.get(tenancy.id) ?? { start: null, end: null },
    billingPeriod: { start: tenancy.billingStart, end: tenancy.billingEnd },
    apartment: {
      apartmentInfo: { city: apartment.city, zipcode: apartment.zipcode },
      uniqueId: apartment.uniqueId,
      apartment: apartment.apartment,
      address: apartment.address,
    },
    // Allocation statements are not stored yet (they come with their own work).
    latestAllocationStatement: null,
    meterUnits: units.get(apartment.id) ?? [],
    isAdmin,
  }));
};

/**
 * Who may see what: a user sees an apartment (unit) and its measurement points only through a tenancy they
 * are a member of, and only the data inside that tenancy's dates, so a new tenant never sees the previous
 * tenant's consumption. Unknown ids and other tenants' ids get the same FORBIDDEN error.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { TIME_ZONE } from '../../lib/periods.ts';
import type { Db } from '../db/client.ts';
import { apartments, tenancies, tenancyMembers } from '../db/schema.ts';
import { forbidden } from '../graphql/errors.ts';

/** An apartment the caller may see, with the window (local midnights, end exclusive or open) of their tenancies. */
export interface UnitAccess {
  apartmentId: number;
  propertyId: number;
  areaM2: string;
  /** The tenant's name on the caller's latest tenancy there. */
  tenant: string;
  from: Temporal.ZonedDateTime;
  to: Temporal.ZonedDateTime | null;
}

/**
 * The caller's access to each apartment; throws FORBIDDEN if any is not theirs. With several tenancies in one
 * apartment the window spans the earliest start to the latest end.
 */
export async function unitAccess(
  db: Db,
  userId: number,
  apartmentIds: number[],
): Promise<Map<number, UnitAccess>> {
  const wanted = [...new Set(apartmentIds)];
  const access = new Map<number, UnitAccess>();
  if (wanted.length === 0) return access;
  const rows = await db
    .select({
      apartmentId: apartments.id,
      propertyId: apartments.propertyId,
      areaM2: apartments.areaM2,
      tenant: tenancies.tenant,
      start: tenancies.start,
      end: tenancies.end,
    })
    .from(tenancyMembers)
    .innerJoin(tenancies, eq(tenancies.id, tenancyMembers.tenancyId))
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .where(and(eq(tenancyMembers.userId, userId), inArray(tenancies.apartmentId, wanted)));
  for (const row of rows) {
    const from = Temporal.PlainDate.from(row.start).toZonedDateTime(TIME_ZONE);
    // The end date is the last day of the tenancy, so data runs to the next midnight.
    const to = row.end ? Temporal.PlainDate.from(row.end).add({ days: 1 }).toZonedDateTime(TIME_ZONE) : null;
    const seen = access.get(row.apartmentId);
    if (!seen) {
      access.set(row.apartmentId, { ...row, from, to });
      continue;
    }
    if (Temporal.ZonedDateTime.compare(from, seen.from) < 0) seen.from = from;
    else seen.tenant = row.tenant;
    if (seen.to && (!to || Temporal.ZonedDateTime.compare(to, seen.to) > 0)) seen.to = to;
  }
  for (const id of wanted) if (!access.has(id)) throw forbidden();
  return access;
}

/** The part of [from, to) inside the caller's window, or null when they do not overlap. */
export function clipToTenancy(
  range: { from: Temporal.ZonedDateTime; to: Temporal.ZonedDateTime },
  access: UnitAccess,
): { from: Temporal.ZonedDateTime; to: Temporal.ZonedDateTime } | null {
  const later = (a: Temporal.ZonedDateTime, b: Temporal.ZonedDateTime) =>
    Temporal.ZonedDateTime.compare(a, b) >= 0 ? a : b;
  const earlier = (a: Temporal.ZonedDateTime, b: Temporal.ZonedDateTime) =>
    Temporal.ZonedDateTime.compare(a, b) <= 0 ? a : b;
  const from = later(range.from, access.from);
  const to = access.to ? earlier(range.to, access.to) : range.to;
  return Temporal.ZonedDateTime.compare(from, to) < 0 ? { from, to } : null;
}

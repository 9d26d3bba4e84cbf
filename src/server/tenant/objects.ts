/** Object details (SPEC §3) for units (apartments) and measurement points, as graphs and unit lists return them. */
import { and, desc, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { type apartments, type measurementPoints, meters, type properties } from '../db/schema.ts';
import type { ObjectDetails, PropertyDetails, UnitDetails } from './types.generated.ts';

type ApartmentRow = typeof apartments.$inferSelect;
type PropertyRow = typeof properties.$inferSelect;
type PointRow = typeof measurementPoints.$inferSelect;

/** The property part of object details. */
function propertyDetails(p: PropertyRow): PropertyDetails {
  return { id: String(p.id), number: p.number, address: p.address, city: p.city, zipcode: p.zipcode };
}

/** The unit part of object details; the name is the address with the floor/side label. */
export function unitDetails(a: ApartmentRow, tenantName: string): UnitDetails {
  const name = a.address.includes(a.apartment) ? a.address : `${a.address}, ${a.apartment}`;
  return { id: String(a.id), unitUniqueId: a.uniqueId, name, tenantName };
}

/** Object details of a unit. */
export function unitObject(
  apartment: ApartmentRow,
  property: PropertyRow,
  tenantName: string,
): ObjectDetails {
  return {
    id: String(apartment.id),
    kind: 'UNIT',
    property: propertyDetails(property),
    unit: unitDetails(apartment, tenantName),
    group: null,
    measurementPoint: null,
  };
}

/** The meter currently installed on each point (the newest one not removed). */
export async function currentMeters(db: Db, pointIds: number[]) {
  const byPoint = new Map<number, typeof meters.$inferSelect>();
  if (pointIds.length === 0) return byPoint;
  const rows = await db
    .select()
    .from(meters)
    .where(and(inArray(meters.measurementPointId, pointIds), isNull(meters.removedAt)))
    .orderBy(desc(meters.installedAt));
  for (const m of rows) if (!byPoint.has(m.measurementPointId)) byPoint.set(m.measurementPointId, m);
  return byPoint;
}

/** Object details of a measurement point, with its group (the point) and current meter. */
export function pointObject(
  point: PointRow,
  apartment: ApartmentRow,
  property: PropertyRow,
  tenantName: string,
  meter: typeof meters.$inferSelect | undefined,
): ObjectDetails {
  return {
    id: String(point.id),
    kind: 'MPOINT',
    property: propertyDetails(property),
    unit: unitDetails(apartment, tenantName),
    group: {
      id: String(point.id),
      quantity: point.quantity,
      operational: meter !== undefined,
      meter: meter ? { id: String(meter.id), number: meter.number, roomName: point.room } : null,
    },
    measurementPoint: {
      id: String(point.id),
      legacyMeterId: point.legacyMeterId,
      name: point.name,
      room: point.room,
      quantity: point.quantity,
    },
  };
}

/** Object details of a property (PROPERTY: its per-m² average; SOURCE: its own points, e.g. outdoor temperature). */
export function propertyObject(property: PropertyRow, kind: 'PROPERTY' | 'SOURCE'): ObjectDetails {
  return {
    id: String(property.id),
    kind,
    property: propertyDetails(property),
    unit: null,
    group: null,
    measurementPoint: null,
  };
}

/**
 * The property page's create forms (issue 21): a new apartment (unit id, address, area, rooms), a measurement
 * point (of a flat or of the property) and a meter on a point, beside the upload. The same roles as the edits
 * (the organisation admin, a manager of the property); the same checks as `import-property` (unique unit ids and
 * meter numbers, known quantities, a period that does not overlap the point's other meters). Refusals have a
 * code and write nothing; every write is audited in its transaction.
 */
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { z } from 'zod';
import { isQuantityId, legacyKindOfQuantity, QUANTITIES, type QuantityId } from '../../lib/quantities.ts';
import type { Db } from '../db/client.ts';
import { apartments, measurementPoints, meters } from '../db/schema.ts';
import { forbidden, parseInput, plainText } from '../graphql/errors.ts';
import { type Actor, recordAudit } from './audit.ts';
import { idOf, meterSummary } from './properties.ts';
import { propsError } from './propsErrors.ts';
import { type OperatorScope, requireProperty } from './scope.ts';

const text = plainText.trim().min(1).max(200);
const optionalText = plainText
  .trim()
  .max(200)
  .nullish()
  .transform((v) => v || null);

const newApartment = z.object({
  uniqueId: text,
  apartment: text,
  address: text,
  zipcode: text,
  city: text,
  areaM2: z
    .string()
    .trim()
    .transform((v) => v.replace(',', '.'))
    .refine((v) => /^\d{1,6}(\.\d{1,2})?$/.test(v) && Number(v) > 0, 'must be a positive number of m²'),
  rooms: z.number().int().min(1).max(1000),
});

/** Adds an apartment to a property the caller reaches. UNIQUE_ID_TAKEN when another flat has the unit id. */
export async function createApartment(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { propertyId: string } & Record<string, unknown>,
) {
  const property = await requireProperty(db, scope, input.propertyId);
  const v = parseInput(newApartment, input);
  return db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: apartments.id })
      .from(apartments)
      .where(eq(apartments.uniqueId, v.uniqueId));
    if (taken) throw propsError('UNIQUE_ID_TAKEN', `Unit id ${v.uniqueId} belongs to another flat`);
    const [created] = await tx
      .insert(apartments)
      .values({ ...v, areaM2: String(Number(v.areaM2)), propertyId: property.id })
      .returning();
    await recordAudit(tx, who, {
      action: 'apartment.create',
      subjectType: 'apartment',
      subjectId: created!.id,
      propertyId: property.id,
      before: null,
      after: { ...v, areaM2: created!.areaM2 },
    });
    return { ...created!, points: [] };
  });
}

const newPoint = z.object({
  quantity: z.string().refine(isQuantityId, 'unknown quantity (see SPEC §3)'),
  name: text,
  room: optionalText,
});

/** Adds a measurement point to a flat (apartmentId) or to the property itself (apartmentId null). */
export async function createMeasurementPoint(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { propertyId: string; apartmentId?: string | null } & Record<string, unknown>,
) {
  const property = await requireProperty(db, scope, input.propertyId);
  let apartmentId: number | null = null;
  if (input.apartmentId) {
    const [flat] = await db
      .select({ id: apartments.id, propertyId: apartments.propertyId })
      .from(apartments)
      .where(eq(apartments.id, idOf(input.apartmentId)));
    // A flat of another property is refused as an unknown one, so ids cannot be probed.
    if (!flat || flat.propertyId !== property.id) throw forbidden();
    apartmentId = flat.id;
  }
  const v = parseInput(newPoint, input);
  const info = QUANTITIES[v.quantity as QuantityId];
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(measurementPoints)
      .values({
        propertyId: property.id,
        apartmentId,
        quantity: v.quantity,
        unit: info.unit,
        name: v.name,
        room: v.room,
        readingKind: info.aggregation === 'sum' ? 'register' : 'instantaneous',
      })
      .returning();
    await recordAudit(tx, who, {
      action: 'measurement_point.create',
      subjectType: 'measurement_point',
      subjectId: created!.id,
      propertyId: property.id,
      before: null,
      after: { apartmentId, quantity: v.quantity, name: v.name, room: v.room },
    });
    return { ...created!, meters: [] };
  });
}

const instant = z
  .string()
  .trim()
  .refine(
    (v) => /(Z|[+-]\d\d:?\d\d)$/.test(v) && !Number.isNaN(Date.parse(v)),
    'must be an ISO 8601 time with an offset or Z',
  )
  .transform((v) => new Date(v));

const newMeter = z.object({
  number: text,
  installedAt: instant,
  radioId: plainText
    .trim()
    .max(64)
    .nullish()
    .transform((v) => v || null),
  legacyKind: optionalText,
});

/**
 * Installs a meter on a point. Refused with a code, nothing written: METER_NUMBER_TAKEN, RADIO_ID_TAKEN,
 * METER_PERIOD_INVALID (a meter of the point is still in use after the installation time: swap it instead),
 * LEGACY_KIND_NEEDED (a quantity without a legacy meter kind of its own).
 */
export async function createMeter(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { measurementPointId: string } & Record<string, unknown>,
) {
  const [point] = await db
    .select()
    .from(measurementPoints)
    .where(eq(measurementPoints.id, idOf(input.measurementPointId)));
  if (!point) throw forbidden();
  await requireProperty(db, scope, point.propertyId);
  const v = parseInput(newMeter, input);
  const legacyKind = v.legacyKind ?? legacyKindOfQuantity(point.quantity as QuantityId);
  if (!legacyKind)
    throw propsError('LEGACY_KIND_NEEDED', `A legacy meter kind is needed for ${point.quantity}`);
  return db.transaction(async (tx) => {
    const [numberTaken] = await tx.select({ id: meters.id }).from(meters).where(eq(meters.number, v.number));
    if (numberTaken) throw propsError('METER_NUMBER_TAKEN', `Meter number ${v.number} already exists`);
    if (v.radioId) {
      const [radioTaken] = await tx
        .select({ id: meters.id })
        .from(meters)
        .where(eq(meters.radioId, v.radioId));
      if (radioTaken) throw propsError('RADIO_ID_TAKEN', `Radio id ${v.radioId} belongs to another meter`);
    }
    const [active] = await tx
      .select({ number: meters.number })
      .from(meters)
      .where(
        and(
          eq(meters.measurementPointId, point.id),
          or(isNull(meters.removedAt), gt(meters.removedAt, v.installedAt)),
        ),
      );
    if (active) {
      throw propsError(
        'METER_PERIOD_INVALID',
        `Meter ${active.number} of the point is in use after that time; record a swap instead`,
      );
    }
    const [created] = await tx
      .insert(meters)
      .values({
        measurementPointId: point.id,
        number: v.number,
        legacyKind,
        installedAt: v.installedAt,
        radioId: v.radioId,
      })
      .returning();
    await recordAudit(tx, who, {
      action: 'meter.create',
      subjectType: 'meter',
      subjectId: created!.number,
      propertyId: point.propertyId,
      before: null,
      after: {
        measurementPointId: point.id,
        number: created!.number,
        legacyKind,
        installedAt: created!.installedAt.toISOString(),
        radioId: created!.radioId,
      },
    });
    return meterSummary(created!);
  });
}

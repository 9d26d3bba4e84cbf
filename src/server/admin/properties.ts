/**
 * Properties in the console (issue 21): a property's apartments, measurement points and meters as the caller's
 * role reaches them; an upload in the `import-property` JSON or CSV format (the CLI's validation, all or nothing,
 * into the caller's organisation); and the forms' edits of an apartment and a measurement point. Every write is
 * audited with before and after in its own transaction.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { importProperty, PropertyImportError } from '../account/importProperty.ts';
import { importPropertyCsv } from '../account/importPropertyCsv.ts';
import type { Db } from '../db/client.ts';
import { apartments, measurementPoints, meters } from '../db/schema.ts';
import { iso } from '../db/sql.ts';
import { forbidden, parseInput, plainText } from '../graphql/errors.ts';
import { type Actor, recordAudit } from './audit.ts';
import { propsError } from './propsErrors.ts';
import { assertOrgAdmin, type OperatorScope, requireProperty } from './scope.ts';

/** The largest upload taken (characters): a property of a few thousand flats fits well inside. */
const MAX_PROPERTY_FILE = 5_000_000;

/** A numeric id from the API; FORBIDDEN otherwise (as for ids the caller may not reach). */
export const idOf = (raw: string | number): number => {
  const id = typeof raw === 'number' ? raw : /^\d{1,9}$/.test(raw) ? Number(raw) : null;
  if (id === null) throw forbidden();
  return id;
};

export type MeterRow = typeof meters.$inferSelect;
export const meterSummary = (m: MeterRow) => ({
  id: m.id,
  number: m.number,
  radioId: m.radioId,
  installedAt: iso(m.installedAt)!,
  removedAt: iso(m.removedAt),
  lastReadingAt: iso(m.lastReadingAt),
});

/** A property with its apartments, their points and each point's meters (oldest first). */
export async function propertyDetail(db: Db, scope: OperatorScope, rawId: string) {
  const property = await requireProperty(db, scope, rawId);
  const flats = await db
    .select()
    .from(apartments)
    .where(eq(apartments.propertyId, property.id))
    .orderBy(asc(apartments.address), asc(apartments.id));
  const points = await db
    .select()
    .from(measurementPoints)
    .where(eq(measurementPoints.propertyId, property.id))
    .orderBy(asc(measurementPoints.quantity), asc(measurementPoints.name), asc(measurementPoints.id));
  const meterRows = await db
    .select()
    .from(meters)
    .where(inArray(meters.measurementPointId, [...points.map((p) => p.id), -1]))
    .orderBy(asc(meters.installedAt), asc(meters.id));
  const pointView = (p: (typeof points)[number]) => ({
    id: p.id,
    quantity: p.quantity,
    unit: p.unit,
    name: p.name,
    room: p.room,
    meters: meterRows.filter((m) => m.measurementPointId === p.id).map(meterSummary),
  });
  return {
    property,
    apartments: flats.map((f) => ({
      ...f,
      points: points.filter((p) => p.apartmentId === f.id).map(pointView),
    })),
    points: points.filter((p) => p.apartmentId === null).map(pointView),
  };
}

/** Onboards a property from an `import-property` file into the caller's organisation (organisation admins). */
export async function importPropertyFile(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  format: 'JSON' | 'CSV',
  content: string,
) {
  assertOrgAdmin(scope);
  const invalid = (problems: string[]) =>
    propsError('PROPERTY_FILE_INVALID', `The file was not imported (nothing was written)`, { problems });
  if (content.length > MAX_PROPERTY_FILE)
    throw invalid([`(file): larger than ${MAX_PROPERTY_FILE} characters`]);
  if (content.includes('\0')) throw invalid(['(file): contains a null byte']);
  const options = {
    accountId: scope.accountId,
    afterWrite: async (tx: Db, result: { propertyId: number }) =>
      recordAudit(tx, who, {
        action: 'property.import',
        subjectType: 'property',
        subjectId: result.propertyId,
        propertyId: result.propertyId,
        before: null,
        after: { format, ...result },
      }),
  };
  try {
    if (format === 'CSV') return await importPropertyCsv(db, content, options);
    let json: unknown;
    try {
      json = JSON.parse(content);
    } catch (err) {
      throw new PropertyImportError([`(file): not JSON: ${(err as Error).message}`]);
    }
    return await importProperty(db, json, options);
  } catch (err) {
    if (err instanceof PropertyImportError) throw invalid(err.problems);
    throw err;
  }
}

const text = plainText.trim().min(1).max(200);
const apartmentInput = z.object({
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

/** The apartment, when the caller reaches its property; FORBIDDEN otherwise (also for unknown ids). */
async function requireApartment(db: Db, scope: OperatorScope, rawId: string) {
  const [apartment] = await db
    .select()
    .from(apartments)
    .where(eq(apartments.id, idOf(rawId)));
  if (!apartment) throw forbidden();
  await requireProperty(db, scope, apartment.propertyId);
  return apartment;
}

const apartmentFields = (a: typeof apartments.$inferSelect) => ({
  apartment: a.apartment,
  address: a.address,
  zipcode: a.zipcode,
  city: a.city,
  areaM2: a.areaM2,
  rooms: a.rooms,
});

/** Edits an apartment's address, area and rooms. */
export async function updateApartment(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { id: string } & Record<string, unknown>,
) {
  const before = await requireApartment(db, scope, input.id);
  const values = parseInput(apartmentInput, input);
  return db.transaction(async (tx) => {
    const [after] = await tx
      .update(apartments)
      .set({ ...values, areaM2: String(Number(values.areaM2)) })
      .where(eq(apartments.id, before.id))
      .returning();
    await recordAudit(tx, who, {
      action: 'apartment.update',
      subjectType: 'apartment',
      subjectId: before.id,
      propertyId: before.propertyId,
      before: apartmentFields(before),
      after: apartmentFields(after!),
    });
    const points = await tx
      .select()
      .from(measurementPoints)
      .where(eq(measurementPoints.apartmentId, before.id))
      .orderBy(asc(measurementPoints.quantity), asc(measurementPoints.name), asc(measurementPoints.id));
    const pointMeters = await tx
      .select()
      .from(meters)
      .where(inArray(meters.measurementPointId, [...points.map((p) => p.id), -1]))
      .orderBy(asc(meters.installedAt), asc(meters.id));
    return {
      ...after!,
      points: points.map((p) => ({
        ...p,
        meters: pointMeters.filter((m) => m.measurementPointId === p.id).map(meterSummary),
      })),
    };
  });
}

const pointInput = z.object({
  name: text,
  room: plainText
    .trim()
    .max(200)
    .nullish()
    .transform((v) => v || null),
});

/** Edits a measurement point's name and room. */
export async function updatePoint(
  db: Db,
  scope: OperatorScope,
  who: Actor,
  input: { id: string; name: string; room?: string | null },
) {
  const [before] = await db
    .select()
    .from(measurementPoints)
    .where(eq(measurementPoints.id, idOf(input.id)));
  if (!before) throw forbidden();
  await requireProperty(db, scope, before.propertyId);
  const values = parseInput(pointInput, input);
  return db.transaction(async (tx) => {
    const [after] = await tx
      .update(measurementPoints)
      .set(values)
      .where(eq(measurementPoints.id, before.id))
      .returning();
    await recordAudit(tx, who, {
      action: 'measurement_point.update',
      subjectType: 'measurement_point',
      subjectId: before.id,
      propertyId: before.propertyId,
      before: { name: before.name, room: before.room },
      after: { name: after!.name, room: after!.room },
    });
    const pointMeters = await tx
      .select()
      .from(meters)
      .where(eq(meters.measurementPointId, before.id))
      .orderBy(asc(meters.installedAt), asc(meters.id));
    return { ...after!, meters: pointMeters.map(meterSummary) };
  });
}

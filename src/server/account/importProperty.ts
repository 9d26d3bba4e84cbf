/**
 * `npm run cli -- import-property <file.json>`: a landlord's building in one JSON file (format in
 * docs/notes/accounts.md): the property, its apartments (address, area, rooms), their measurement points and
 * meters, and the tenancies. The whole file is validated first, including clashes with what is already
 * stored, and then written in one transaction, so a bad file writes nothing.
 */
import { inArray } from 'drizzle-orm';
import { z } from 'zod';
import { isQuantityId, legacyKindOfQuantity, QUANTITIES, type QuantityId } from '../../lib/quantities.ts';
import type { Db } from '../db/client.ts';
import {
  accounts,
  apartments,
  measurementPoints,
  meters,
  properties,
  propertySettings,
  tenancies,
} from '../db/schema.ts';

const isoDate = z.iso.date();
const text = z.string().trim().min(1).max(200);

const meterSchema = z.object({
  number: text,
  installedAt: z.iso.datetime({ offset: true }),
  removedAt: z.iso.datetime({ offset: true }).nullable().optional(),
  legacyKind: text.optional(),
});

const pointSchema = z.object({
  quantity: z.string().refine(isQuantityId, { message: 'unknown quantity (see SPEC §3)' }),
  name: text,
  room: text.nullable().optional(),
  legacyMeterId: text.nullable().optional(),
  meters: z.array(meterSchema).default([]),
});

const tenancySchema = z
  .object({
    tenancyId: text,
    tenant: z.string().trim().max(200).default(''),
    start: isoDate,
    end: isoDate.nullable().optional(),
    billingStart: isoDate.nullable().optional(),
    billingEnd: isoDate.nullable().optional(),
  })
  .refine((t) => !t.end || t.end >= t.start, { message: 'end is before start', path: ['end'] });

const apartmentSchema = z.object({
  uniqueId: text,
  apartment: text,
  address: text,
  zipcode: text,
  city: text,
  areaM2: z.number().positive().max(100_000),
  rooms: z.number().int().positive().max(1000),
  measurementPoints: z.array(pointSchema).default([]),
  tenancies: z.array(tenancySchema).default([]),
});

/** The import file's format. */
const propertyFileSchema = z.object({
  account: text,
  property: z.object({
    number: text,
    name: z.string().trim().max(200).default(''),
    address: text,
    zipcode: text,
    city: text,
    country: z.string().trim().length(2).default('DK'),
    contactPhone: text.nullable().optional(),
    contactEmail: z.email().nullable().optional(),
    settings: z.array(text).default([]),
    /**
     * Property-level points, not in any flat: the building's supply heat meter (what the allocator estimate
     * shares out), outdoor temperature. Allocators belong in flats.
     */
    measurementPoints: z
      .array(
        pointSchema.refine((p) => p.quantity !== 'hca', {
          message: 'allocators (hca) belong in a flat',
          path: ['quantity'],
        }),
      )
      .default([]),
  }),
  apartments: z.array(apartmentSchema).min(1),
});

export type PropertyFile = z.infer<typeof propertyFileSchema>;

/** A file that cannot be imported, with every problem found. */
export class PropertyImportError extends Error {
  constructor(readonly problems: string[]) {
    super(`The file was not imported (nothing was written):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

function duplicates(values: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return [...dup];
}

/** Validates the parsed JSON whole: shape, duplicates inside the file, and clashes with stored data. */
export async function validatePropertyFile(db: Db, input: unknown): Promise<PropertyFile> {
  const parsed = propertyFileSchema.safeParse(input);
  if (!parsed.success) {
    throw new PropertyImportError(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`),
    );
  }
  const file = parsed.data;
  const problems: string[] = [];
  const uniqueIds = file.apartments.map((a) => a.uniqueId);
  const meterNumbers = [file.property, ...file.apartments].flatMap((a) =>
    a.measurementPoints.flatMap((p) => p.meters.map((m) => m.number)),
  );
  const tenancyIds = file.apartments.flatMap((a) => a.tenancies.map((t) => t.tenancyId));
  for (const d of duplicates(uniqueIds)) problems.push(`apartment uniqueId ${d} appears more than once`);
  for (const d of duplicates(meterNumbers)) problems.push(`meter number ${d} appears more than once`);
  for (const d of duplicates(tenancyIds)) problems.push(`tenancyId ${d} appears more than once`);
  const owners = [
    { path: 'property', points: file.property.measurementPoints },
    ...file.apartments.map((a, i) => ({ path: `apartments.${i}`, points: a.measurementPoints })),
  ];
  for (const owner of owners) {
    for (const [j, p] of owner.points.entries()) {
      for (const [k, m] of p.meters.entries()) {
        const at = `${owner.path}.measurementPoints.${j}.meters.${k}`;
        if (m.removedAt && m.removedAt <= m.installedAt)
          problems.push(`${at}: removedAt is not after installedAt`);
        if (!m.legacyKind && !legacyKindOfQuantity(p.quantity as QuantityId)) {
          problems.push(`${at}: legacyKind is needed for ${p.quantity}`);
        }
      }
    }
  }
  const taken = async <T extends string>(label: string, found: Promise<Array<{ v: T }>>) => {
    for (const { v } of await found) problems.push(`${label} ${v} already exists`);
  };
  await taken(
    'property number',
    db
      .select({ v: properties.number })
      .from(properties)
      .where(inArray(properties.number, [file.property.number])),
  );
  if (uniqueIds.length) {
    await taken(
      'apartment uniqueId',
      db.select({ v: apartments.uniqueId }).from(apartments).where(inArray(apartments.uniqueId, uniqueIds)),
    );
  }
  if (meterNumbers.length) {
    await taken(
      'meter number',
      db.select({ v: meters.number }).from(meters).where(inArray(meters.number, meterNumbers)),
    );
  }
  if (tenancyIds.length) {
    await taken(
      'tenancyId',
      db.select({ v: tenancies.tenancyId }).from(tenancies).where(inArray(tenancies.tenancyId, tenancyIds)),
    );
  }
  if (problems.length) throw new PropertyImportError(problems);
  return file;
}

/** What an import wrote. */
export interface PropertyImportResult {
  propertyId: number;
  apartments: number;
  measurementPoints: number;
  meters: number;
  tenancies: number;
}

/** Where an import writes (the console's upload): an existing organisation, and a write in the same transaction. */
export interface ImportOptions {
  /** The organisation the property joins; without it, a new account named by the file's `account`. */
  accountId?: number;
  /** Runs inside the import's transaction after the writes (the console's audit entry). */
  afterWrite?: (tx: Db, result: PropertyImportResult) => Promise<void>;
}

/** Validates and writes a property file in one transaction. */
export async function importProperty(
  db: Db,
  input: unknown,
  options: ImportOptions = {},
): Promise<PropertyImportResult> {
  const file = await validatePropertyFile(db, input);
  return db.transaction(async (tx) => {
    const accountId =
      options.accountId ??
      (await tx.insert(accounts).values({ name: file.account }).returning({ id: accounts.id }))[0]!.id;
    const { settings, measurementPoints: propertyPoints, ...property } = file.property;
    const [created] = await tx
      .insert(properties)
      .values({
        ...property,
        contactPhone: property.contactPhone ?? null,
        contactEmail: property.contactEmail ?? null,
        accountId,
      })
      .returning({ id: properties.id });
    const propertyId = created!.id;
    if (settings.length) {
      await tx.insert(propertySettings).values([...new Set(settings)].map((kind) => ({ propertyId, kind })));
    }
    const result: PropertyImportResult = {
      propertyId,
      apartments: 0,
      measurementPoints: 0,
      meters: 0,
      tenancies: 0,
    };
    const insertPoints = async (
      apartmentId: number | null,
      points: PropertyFile['property']['measurementPoints'],
    ) => {
      for (const p of points) {
        const info = QUANTITIES[p.quantity as QuantityId];
        const [point] = await tx
          .insert(measurementPoints)
          .values({
            propertyId,
            apartmentId,
            quantity: p.quantity,
            unit: info.unit,
            room: p.room ?? null,
            name: p.name,
            legacyMeterId: p.legacyMeterId ?? null,
            readingKind: info.aggregation === 'sum' ? 'register' : 'instantaneous',
          })
          .returning({ id: measurementPoints.id });
        result.measurementPoints++;
        for (const m of p.meters) {
          await tx.insert(meters).values({
            measurementPointId: point!.id,
            number: m.number,
            legacyKind: m.legacyKind ?? legacyKindOfQuantity(p.quantity as QuantityId)!,
            installedAt: new Date(m.installedAt),
            removedAt: m.removedAt ? new Date(m.removedAt) : null,
          });
          result.meters++;
        }
      }
    };
    await insertPoints(null, propertyPoints);
    for (const a of file.apartments) {
      const [apt] = await tx
        .insert(apartments)
        .values({
          propertyId,
          uniqueId: a.uniqueId,
          apartment: a.apartment,
          address: a.address,
          zipcode: a.zipcode,
          city: a.city,
          areaM2: String(a.areaM2),
          rooms: a.rooms,
        })
        .returning({ id: apartments.id });
      result.apartments++;
      await insertPoints(apt!.id, a.measurementPoints);
      for (const t of a.tenancies) {
        await tx.insert(tenancies).values({
          apartmentId: apt!.id,
          tenancyId: t.tenancyId,
          tenant: t.tenant,
          start: t.start,
          end: t.end ?? null,
          billingStart: t.billingStart ?? null,
          billingEnd: t.billingEnd ?? null,
        });
        result.tenancies++;
      }
    }
    await options.afterWrite?.(tx as unknown as Db, result);
    return result;
  });
}

/**
 * The CSV form of `import-property` (docs/notes/accounts2.md): one record per line, its kind in the first
 * column, the other columns fixed per kind (below). Lines starting with `#` are comments, so the kinds' headers
 * can stay in the file. The CSV becomes the JSON form's object, so both formats share one validation and one
 * transaction; every problem is reported with the file's line number, and nothing is written on error.
 */
import { CsvError, parse } from 'csv-parse/sync';
import type { Db } from '../db/client.ts';
import {
  type ImportOptions,
  importProperty,
  PropertyImportError,
  type PropertyImportResult,
  validatePropertyFile,
} from './importProperty.ts';

/** The columns after the kind, per kind; trailing empty columns may be left out. */
const CSV_RECORDS = {
  property: [
    'account',
    'number',
    'name',
    'address',
    'zipcode',
    'city',
    'country',
    'contact_phone',
    'contact_email',
    'settings',
  ],
  apartment: ['unique_id', 'apartment', 'address', 'zipcode', 'city', 'area_m2', 'rooms'],
  point: ['apartment_unique_id', 'quantity', 'name', 'room', 'legacy_meter_id'],
  meter: ['apartment_unique_id', 'point_name', 'number', 'installed_at', 'removed_at', 'legacy_kind'],
  tenancy: ['apartment_unique_id', 'tenancy_id', 'tenant', 'start', 'end', 'billing_start', 'billing_end'],
} as const;

type Kind = keyof typeof CSV_RECORDS;

type Json = Record<string, unknown>;

/** A number when the text is one (decimal point), else the text, so validation names the bad value. */
const numeric = (text: string): number | string => (/^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text);
/** Empty columns are absent (null for the optional ones). */
const optional = (text: string | undefined): string | null => (text ? text : null);

/** The parsed CSV: the JSON form's object and, for each JSON path, the line it came from. */
export interface ParsedPropertyCsv {
  file: Json;
  lines: Map<string, number>;
}

/** Parses the CSV; a file that cannot become the JSON form throws PropertyImportError with line numbers. */
export function parsePropertyCsv(text: string): ParsedPropertyCsv {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      comment: '#',
      comment_no_infix: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (err) {
    if (err instanceof CsvError) {
      const line = Number((err as CsvError & { lines?: number }).lines ?? 0);
      throw new PropertyImportError([`line ${line}: malformed CSV: ${err.message}`]);
    }
    throw err;
  }
  const problems: string[] = [];
  const lines = new Map<string, number>();
  let property: Json | null = null;
  let account: string | null = null;
  const apartments: Json[] = [];
  type Holder = { json: Json; path: string; points: Map<string, number> };
  const byUniqueId = new Map<string, Holder>();
  // Points with no apartment (an empty apartment_unique_id) are the property's own: its supply heat meter.
  const propertyHolder: Holder = { json: { measurementPoints: [] }, path: 'property', points: new Map() };
  for (const { record, info } of records) {
    const line = info.lines;
    const kind = record[0]?.toLowerCase() ?? '';
    if (!Object.hasOwn(CSV_RECORDS, kind)) {
      problems.push(
        `line ${line}: unknown record "${record[0] ?? ''}" (expected ${Object.keys(CSV_RECORDS).join(', ')})`,
      );
      continue;
    }
    const columns = CSV_RECORDS[kind as Kind];
    if (record.length - 1 > columns.length) {
      problems.push(`line ${line}: a ${kind} has at most ${columns.length} columns after "${kind}"`);
      continue;
    }
    const v = Object.fromEntries(columns.map((c, i) => [c, record[i + 1] ?? ''])) as Record<string, string>;
    const apartmentOf = (id: string) => {
      if (id === '' && kind !== 'tenancy') return propertyHolder;
      const found = byUniqueId.get(id);
      if (!found) problems.push(`line ${line}: apartment "${id}" is not defined on an earlier line`);
      return found;
    };
    switch (kind as Kind) {
      case 'property': {
        if (property) {
          problems.push(`line ${line}: a file holds one property`);
          break;
        }
        account = v.account!;
        property = {
          number: v.number,
          name: v.name,
          address: v.address,
          zipcode: v.zipcode,
          city: v.city,
          ...(v.country ? { country: v.country } : {}),
          contactPhone: optional(v.contact_phone),
          contactEmail: optional(v.contact_email),
          settings: (v.settings ?? '')
            .split(';')
            .map((s) => s.trim())
            .filter(Boolean),
        };
        lines.set('account', line);
        lines.set('property', line);
        break;
      }
      case 'apartment': {
        const id = v.unique_id!;
        if (byUniqueId.has(id)) {
          problems.push(`line ${line}: apartment "${id}" appears more than once`);
          break;
        }
        const json: Json = {
          uniqueId: id,
          apartment: v.apartment,
          address: v.address,
          zipcode: v.zipcode,
          city: v.city,
          areaM2: numeric(v.area_m2!),
          rooms: numeric(v.rooms!),
          measurementPoints: [],
          tenancies: [],
        };
        const index = apartments.push(json) - 1;
        byUniqueId.set(id, { json, path: `apartments.${index}`, points: new Map() });
        lines.set(`apartments.${index}`, line);
        break;
      }
      case 'point': {
        const apt = apartmentOf(v.apartment_unique_id!);
        if (!apt) break;
        if (apt.points.has(v.name!)) {
          problems.push(
            `line ${line}: measurement point "${v.name}" appears twice in apartment "${v.apartment_unique_id}"`,
          );
          break;
        }
        const points = apt.json.measurementPoints as Json[];
        const index =
          points.push({
            quantity: v.quantity,
            name: v.name,
            room: optional(v.room),
            legacyMeterId: optional(v.legacy_meter_id),
            meters: [],
          }) - 1;
        apt.points.set(v.name!, index);
        lines.set(`${apt.path}.measurementPoints.${index}`, line);
        break;
      }
      case 'meter': {
        const apt = apartmentOf(v.apartment_unique_id!);
        if (!apt) break;
        const pointIndex = apt.points.get(v.point_name!);
        if (pointIndex === undefined) {
          problems.push(
            `line ${line}: measurement point "${v.point_name}" of apartment "${v.apartment_unique_id}" is not defined on an earlier line`,
          );
          break;
        }
        const point = (apt.json.measurementPoints as Json[])[pointIndex]!;
        const index =
          (point.meters as Json[]).push({
            number: v.number,
            installedAt: v.installed_at,
            removedAt: optional(v.removed_at),
            ...(v.legacy_kind ? { legacyKind: v.legacy_kind } : {}),
          }) - 1;
        lines.set(`${apt.path}.measurementPoints.${pointIndex}.meters.${index}`, line);
        break;
      }
      case 'tenancy': {
        const apt = apartmentOf(v.apartment_unique_id!);
        if (!apt) break;
        const list = apt.json.tenancies as Json[];
        const index =
          list.push({
            tenancyId: v.tenancy_id,
            tenant: v.tenant,
            start: v.start,
            end: optional(v.end),
            billingStart: optional(v.billing_start),
            billingEnd: optional(v.billing_end),
          }) - 1;
        lines.set(`${apt.path}.tenancies.${index}`, line);
        break;
      }
    }
  }
  if (!property) problems.push('the file has no "property" line');
  if (problems.length) throw new PropertyImportError(problems);
  const withPoints = { ...property!, measurementPoints: propertyHolder.json.measurementPoints };
  return { file: { account, property: withPoints, apartments }, lines };
}

/** Rewrites "apartments.0.tenancies.1.start: …" as "line 7 (apartments.0.tenancies.1.start): …". */
function withLines(problem: string, lines: Map<string, number>): string {
  const match = /^([\w.]+): /.exec(problem);
  if (!match) return problem;
  const parts = match[1]!.split('.');
  for (let n = parts.length; n > 0; n--) {
    const line = lines.get(parts.slice(0, n).join('.'));
    if (line !== undefined) return `line ${line} (${match[1]}): ${problem.slice(match[0].length)}`;
  }
  return problem;
}

/** Validates a CSV file whole, with line numbers in every problem it can place; throws PropertyImportError. */
async function validatePropertyCsv(db: Db, text: string): Promise<ParsedPropertyCsv> {
  const parsed = parsePropertyCsv(text);
  try {
    await validatePropertyFile(db, parsed.file);
  } catch (err) {
    if (err instanceof PropertyImportError) {
      throw new PropertyImportError(err.problems.map((p) => withLines(p, parsed.lines)));
    }
    throw err;
  }
  return parsed;
}

/** Imports a CSV file: validated whole (with line numbers), then written in one transaction. */
export async function importPropertyCsv(
  db: Db,
  text: string,
  options: ImportOptions = {},
): Promise<PropertyImportResult> {
  const { file } = await validatePropertyCsv(db, text);
  return importProperty(db, file, options);
}

/**
 * Importing allocation statements (`npm run cli -- import-statement <file.json>`): every statement of the
 * file is checked first, then all are written in one transaction; any problem writes nothing.
 */
import { readFile } from 'node:fs/promises';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  allocationStatements,
  apartments,
  measurementPoints,
  meters,
  properties,
  tenancies,
} from '../db/schema.ts';
import {
  describeIssues,
  objectionDeadlineProblem,
  parseStatementJson,
  type StatementInput,
  statementContentProblems,
  statementDay,
  statementRow,
} from './model.ts';

/** A file that cannot be imported; the message lists every problem. */
export class StatementImportError extends Error {
  override name = 'StatementImportError';
}

/** Parses and checks a file's text; throws StatementImportError with every problem. */
export function parseStatementFile(text: string): StatementInput[] {
  let json: unknown;
  let nullByte = false;
  try {
    json = JSON.parse(text, (_key, value: unknown) => {
      if (typeof value === 'string' && value.includes('\0')) nullByte = true;
      return value;
    });
  } catch (error) {
    throw new StatementImportError(`The file is not valid JSON: ${(error as Error).message}`);
  }
  if (nullByte)
    throw new StatementImportError('The file is not valid: a text contains a null byte (\\u0000).');
  const result = parseStatementJson(json);
  if (!result.success)
    throw new StatementImportError(`The statement is not valid:\n${describeIssues(result.error)}`);
  return result.data;
}

/** The meter numbers of each tenancy's flat (tenancies.tenancy_id → numbers), for the statements' scale factors. */
export async function meterNumbersOfTenancies(db: Db, refs: string[]): Promise<Map<string, Set<string>>> {
  const rows = refs.length
    ? await db
        .select({ ref: tenancies.tenancyId, number: meters.number })
        .from(tenancies)
        .innerJoin(measurementPoints, eq(measurementPoints.apartmentId, tenancies.apartmentId))
        .innerJoin(meters, eq(meters.measurementPointId, measurementPoints.id))
        .where(inArray(tenancies.tenancyId, refs))
    : [];
  const byRef = new Map<string, Set<string>>(refs.map((r) => [r, new Set()]));
  for (const r of rows) byRef.get(r.ref)?.add(r.number);
  return byRef;
}

/**
 * Writes validated statements in one transaction, made `now`; unknown tenancies, periods already imported and
 * objection deadlines that break the rule (objectionDeadlineProblem: 6 weeks from receipt in Denmark, never
 * before the statement is made) write nothing.
 */
export async function importStatements(
  db: Db,
  statements: StatementInput[],
  now = new Date(),
): Promise<{ imported: number }> {
  const refs = [...new Set(statements.map((s) => s.tenancy))];
  const found = await db
    .select({ id: tenancies.id, ref: tenancies.tenancyId, country: properties.country })
    .from(tenancies)
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .innerJoin(properties, eq(properties.id, apartments.propertyId))
    .where(inArray(tenancies.tenancyId, refs));
  const idOf = new Map(found.map((t) => [t.ref, t.id]));
  const countryOf = new Map(found.map((t) => [t.ref, t.country]));
  const problems = refs.filter((r) => !idOf.has(r)).map((r) => `  - tenancy: no tenancy "${r}"`);
  const createdOn = statementDay(now);
  const meterNumbers = await meterNumbersOfTenancies(db, refs);
  const keys = new Set<string>();
  for (const s of statements) {
    const country = countryOf.get(s.tenancy);
    const deadline = country && objectionDeadlineProblem(s.objectionDeadline, createdOn, country);
    if (deadline) problems.push(`  - ${s.tenancy}: objectionDeadline ${s.objectionDeadline} ${deadline}`);
    if (country)
      for (const p of statementContentProblems(s, country, meterNumbers.get(s.tenancy) ?? new Set()))
        problems.push(`  - ${s.tenancy}: ${p.field}: ${p.message}`);
    const key = `${s.tenancy} ${s.periodStart} ${s.periodEnd}`;
    if (keys.has(key))
      problems.push(`  - ${s.tenancy}: the period ${s.periodStart}–${s.periodEnd} is in the file twice`);
    keys.add(key);
  }
  if (problems.length > 0)
    throw new StatementImportError(`The statement is not valid:\n${problems.join('\n')}`);

  return db.transaction(async (tx) => {
    for (const s of statements) {
      const tenancyId = idOf.get(s.tenancy)!;
      const [existing] = await tx
        .select({ id: allocationStatements.id })
        .from(allocationStatements)
        .where(
          and(
            eq(allocationStatements.tenancyId, tenancyId),
            eq(allocationStatements.periodStart, s.periodStart),
            eq(allocationStatements.periodEnd, s.periodEnd),
          ),
        );
      if (existing)
        throw new StatementImportError(
          `${s.tenancy} already has a statement for ${s.periodStart}–${s.periodEnd}; nothing was imported.`,
        );
      await tx.insert(allocationStatements).values({ tenancyId, ...statementRow(s), createdAt: now });
    }
    return { imported: statements.length };
  });
}

/** Reads, checks and imports a statement file. */
export async function importStatementFile(
  db: Db,
  path: string,
  now = new Date(),
): Promise<{ imported: number }> {
  return importStatements(db, parseStatementFile(await readFile(path, 'utf8')), now);
}

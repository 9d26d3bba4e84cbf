/**
 * Allocation statements from the console (issue 21, /admin/statements): upload one or many files in the
 * `import-statement` JSON format for one property, checked all or nothing (each problem with its file and field),
 * then imported through src/server/statements/import.ts in one transaction with an audit entry per statement;
 * and which of the property's tenancies have a statement.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { allocationStatements, apartments, tenancies } from '../db/schema.ts';
import { importStatements, meterNumbersOfTenancies, StatementImportError } from '../statements/import.ts';
import {
  objectionDeadlineProblem,
  parseStatementJson,
  type StatementInput,
  statementContentProblems,
  statementDay,
  statementRow,
} from '../statements/model.ts';
import { type Actor, recordAudit } from './audit.ts';
import { type OperatorScope, requireProperty } from './scope.ts';
import { settingsError } from './settingsErrors.ts';

const MAX_FILES = 500;
const MAX_TEXT = 2_000_000;

interface Problem {
  file: string;
  field: string;
  message: string;
}

/** The property's tenancies, each with its statements, by flat and start. */
export async function statementCoverage(db: Db, scope: OperatorScope, propertyId: string) {
  const property = await requireProperty(db, scope, propertyId);
  const rows = await db
    .select({
      tenancyId: tenancies.id,
      reference: tenancies.tenancyId,
      apartment: apartments.apartment,
      start: tenancies.start,
      end: tenancies.end,
    })
    .from(tenancies)
    .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
    .where(eq(apartments.propertyId, property.id))
    .orderBy(asc(apartments.apartment), asc(tenancies.start), asc(tenancies.id));
  const ids = rows.map((r) => r.tenancyId);
  const statements = ids.length
    ? await db
        .select()
        .from(allocationStatements)
        .where(inArray(allocationStatements.tenancyId, ids))
        .orderBy(asc(allocationStatements.periodStart))
    : [];
  return rows.map((r) => ({
    ...r,
    tenancyId: String(r.tenancyId),
    statements: statements
      .filter((s) => s.tenancyId === r.tenancyId)
      .map((s) => ({
        id: String(s.id),
        periodStart: s.periodStart,
        periodEnd: s.periodEnd,
        balance: s.balance,
        currency: s.currency,
      })),
  }));
}

/** Parses every file; the JSON syntax error's position, or each field's zod problem. */
function parseFiles(files: { name: string; text: string }[]) {
  const problems: Problem[] = [];
  const parsed: { file: string; statement: StatementInput }[] = [];
  for (const f of files) {
    const file = f.name.slice(0, 200) || '(file)';
    if (f.text.length > MAX_TEXT) {
      problems.push({ file, field: '(file)', message: 'the file is larger than 2 MB' });
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(f.text);
    } catch (error) {
      problems.push({ file, field: '(file)', message: `not valid JSON: ${(error as Error).message}` });
      continue;
    }
    if (f.text.includes('\\u0000')) {
      problems.push({ file, field: '(file)', message: 'a text contains a null byte (\\u0000)' });
      continue;
    }
    const result = parseStatementJson(json);
    if (!result.success) {
      for (const i of result.error.issues)
        problems.push({ file, field: i.path.join('.') || '(file)', message: i.message });
      continue;
    }
    for (const statement of result.data) parsed.push({ file, statement });
  }
  return { problems, parsed };
}

/**
 * Checks the files against the property: its tenancies only, no period twice or imported already, and the
 * objection deadline by the property's country's rule for a statement made now (the same rule `importStatements`
 * applies, so a check that passes is an import that passes).
 */
async function check(
  db: Db,
  property: { id: number; country: string },
  files: { name: string; text: string }[],
  now: Date,
) {
  const propertyId = property.id;
  const createdOn = statementDay(now);
  const { problems, parsed } = parseFiles(files);
  const refs = [...new Set(parsed.map((p) => p.statement.tenancy))];
  const own = refs.length
    ? await db
        .select({ id: tenancies.id, ref: tenancies.tenancyId })
        .from(tenancies)
        .innerJoin(apartments, eq(apartments.id, tenancies.apartmentId))
        .where(and(eq(apartments.propertyId, propertyId), inArray(tenancies.tenancyId, refs)))
    : [];
  const idOf = new Map(own.map((t) => [t.ref, t.id]));
  const existing = own.length
    ? await db
        .select({
          tenancyId: allocationStatements.tenancyId,
          start: allocationStatements.periodStart,
          end: allocationStatements.periodEnd,
        })
        .from(allocationStatements)
        .where(inArray(allocationStatements.tenancyId, [...idOf.values()]))
    : [];
  const meterNumbers = await meterNumbersOfTenancies(db, [...idOf.keys()]);
  const taken = new Set(existing.map((e) => `${e.tenancyId} ${e.start} ${e.end}`));
  const seen = new Set<string>();
  for (const { file, statement: s } of parsed) {
    const id = idOf.get(s.tenancy);
    // Another property's tenancy answers like one that does not exist (references cannot be probed).
    if (id === undefined) {
      problems.push({ file, field: 'tenancy', message: `"${s.tenancy}" is not a tenancy of this property` });
      continue;
    }
    const deadline = objectionDeadlineProblem(s.objectionDeadline, createdOn, property.country);
    if (deadline)
      problems.push({ file, field: 'objectionDeadline', message: `${s.objectionDeadline} ${deadline}` });
    for (const p of statementContentProblems(s, property.country, meterNumbers.get(s.tenancy) ?? new Set()))
      problems.push({ file, ...p });
    const key = `${id} ${s.periodStart} ${s.periodEnd}`;
    if (taken.has(key))
      problems.push({
        file,
        field: 'periodStart',
        message: `${s.tenancy} already has a statement for ${s.periodStart}–${s.periodEnd}`,
      });
    else if (seen.has(key))
      problems.push({
        file,
        field: 'periodStart',
        message: `${s.tenancy}: the period ${s.periodStart}–${s.periodEnd} is in the upload twice`,
      });
    seen.add(key);
  }
  return { problems, parsed, idOf };
}

export async function uploadStatements(
  db: Db,
  scope: OperatorScope,
  actor: Actor,
  propertyId: string,
  files: { name: string; text: string }[],
  dryRun: boolean,
) {
  const property = await requireProperty(db, scope, propertyId);
  if (files.length === 0 || files.length > MAX_FILES)
    throw settingsError('INVALID_STATEMENTS', `Upload 1–${MAX_FILES} files`);
  const now = new Date();
  const { problems, parsed, idOf } = await check(db, property, files, now);
  const statements = parsed.map(({ file, statement: s }) => ({
    file,
    tenancy: s.tenancy,
    periodStart: s.periodStart,
    periodEnd: s.periodEnd,
    balance: statementRow(s).balance,
    currency: s.currency,
  }));
  if (problems.length > 0 || parsed.length === 0 || dryRun)
    return {
      ok: problems.length === 0 && parsed.length > 0,
      imported: 0,
      statements,
      problems:
        parsed.length === 0 && problems.length === 0
          ? [{ file: '(upload)', field: '(file)', message: 'no statements' }]
          : problems,
    };
  try {
    await db.transaction(async (txn) => {
      const tx = txn as unknown as Db;
      await importStatements(
        tx,
        parsed.map((p) => p.statement),
        now,
      );
      for (const s of statements)
        await recordAudit(tx, actor, {
          action: 'statement.import',
          subjectType: 'tenancy',
          subjectId: idOf.get(s.tenancy)!,
          propertyId: property.id,
          after: s,
        });
    });
  } catch (error) {
    // A statement imported by someone else between the check and the write: nothing was imported.
    if (error instanceof StatementImportError)
      return {
        ok: false,
        imported: 0,
        statements,
        problems: [{ file: '(upload)', field: '(file)', message: error.message }],
      };
    throw error;
  }
  return { ok: true, imported: statements.length, statements, problems: [] };
}

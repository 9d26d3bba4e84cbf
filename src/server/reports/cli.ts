/**
 * `npm run cli -- reports [--month YYYY-MM] [--tenancy <id>]`: the monthly-report job run by hand, in the
 * shape the worker will schedule: keyed (monthly-report, tenancy, month) and idempotent.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { monthlyReports, tenancies } from '../db/schema.ts';
import { reportSettings } from './deployment.ts';
import { generateMonthlyReports } from './generate.ts';
import { lastCompleteMonth, parseMonth } from './months.ts';

export const REPORTS_HELP = `  reports [--month YYYY-MM] [--tenancy <id>]
                      Generate the public monthly reports of a complete month (default: the last one) for
                      every tenancy, or one. Idempotent: a rerun keeps codes and only refreshes changed figures.
  reports:list [--month YYYY-MM]
                      Print the report links (path /report/<code>) with their tenancy and expiry.`;

/** A mistake in the command line: printed without a stack trace. */
export class CliInputError extends Error {
  override name = 'CliInputError';
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) throw new CliInputError(`${name} needs a value`);
  return value;
}

function monthOption(args: string[], now: Date): string {
  const raw = option(args, '--month');
  if (raw === undefined) return lastCompleteMonth(now);
  const month = parseMonth(raw);
  if (!month) throw new CliInputError(`--month must look like 2026-10, got "${raw}"`);
  if (month > lastCompleteMonth(now)) throw new CliInputError(`${raw} is not a complete month yet`);
  return month;
}

/** Runs a reports command; false when the command is not one of ours. */
export async function runReportsCommand(
  command: string,
  args: string[],
  open: () => Promise<Db>,
): Promise<boolean> {
  if (command !== 'reports' && command !== 'reports:list') return false;
  const now = new Date();
  const month = monthOption(args, now);
  const known = new Set(['--month', '--tenancy']);
  for (let i = 0; i < args.length; i += 2) {
    if (!known.has(args[i]!)) throw new CliInputError(`Unknown option "${args[i]}"`);
  }
  if (command === 'reports') {
    const rawTenancy = option(args, '--tenancy');
    const tenancyId = rawTenancy === undefined ? undefined : Number(rawTenancy);
    if (tenancyId !== undefined && !Number.isInteger(tenancyId))
      throw new CliInputError(`--tenancy takes the tenancy's numeric id, got "${rawTenancy}"`);
    const settings = reportSettings();
    const db = await open();
    const result = await generateMonthlyReports(db, { month, now, settings, tenancyId });
    console.log(`Monthly reports for ${month.slice(0, 7)}:`);
    console.log(`  created ${result.created}, updated ${result.updated}, unchanged ${result.unchanged}`);
    console.log(`  skipped ${result.skipped} (no consumption in the month or the months compared with)`);
    return true;
  }
  const db = await open();
  const rows = await db
    .select({ code: monthlyReports.code, tenancy: tenancies.tenancyId, expiresAt: monthlyReports.expiresAt })
    .from(monthlyReports)
    .innerJoin(tenancies, eq(tenancies.id, monthlyReports.tenancyId))
    .where(eq(monthlyReports.month, month))
    .orderBy(asc(tenancies.tenancyId));
  if (rows.length === 0) console.log(`No reports for ${month.slice(0, 7)}; run: npm run cli -- reports`);
  for (const r of rows)
    console.log(`${r.tenancy}\t/report/${r.code}\texpires ${r.expiresAt.toISOString().slice(0, 10)}`);
  return true;
}

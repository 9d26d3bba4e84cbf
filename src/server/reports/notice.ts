/**
 * The monthly notice (EU Energy Efficiency Directive Annex VIIa; issue 22): when a month is complete, its report
 * is generated for the tenancy and the notification carries the report's link and its comparison, not only
 * raw totals. The same figures as the report, taken from its stored snapshot.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { monthlyReports } from '../db/schema.ts';
import { reportSettings } from './deployment.ts';
import { generateMonthlyReports } from './generate.ts';
import type { MonthlyReport } from './model.ts';

/** What a consumption-report notification keeps of its month's report (notifications.details.report). */
export interface ReportNotice {
  /** The public report's code: the notice links to /report/<code>. */
  code: string;
  comparison: {
    quantity: string;
    value: number | null;
    previousMonth: number | null;
    sameMonthLastYear: number | null;
  }[];
  correctedChangePercent: number | null;
}

/**
 * Generates (or refreshes) the tenancy's report of the month ('YYYY-MM-01') and returns what its notice shows;
 * null when the month has no report (no consumption in it or in the two months it is compared with).
 */
export async function reportNotice(
  tx: Db,
  tenancyId: number,
  month: string,
  now: Date,
): Promise<ReportNotice | null> {
  await generateMonthlyReports(tx, { month, now, settings: reportSettings(), tenancyId });
  const [row] = await tx
    .select({ code: monthlyReports.code, content: monthlyReports.content })
    .from(monthlyReports)
    .where(and(eq(monthlyReports.tenancyId, tenancyId), eq(monthlyReports.month, month)));
  if (!row) return null;
  const report = row.content as MonthlyReport;
  return {
    code: row.code,
    comparison: report.quantities.map((q) => ({
      quantity: q.quantity,
      value: q.month,
      previousMonth: q.previousMonth,
      sameMonthLastYear: q.sameMonthLastYear,
    })),
    correctedChangePercent: report.climate?.correctedChangePercent ?? null,
  };
}

/**
 * Annual heat allocation statements (fordelingsregnskab): the import file's schema and its checks. Pure.
 * Money is handled in minor units (øre) so sums are exact; amounts are stored as numeric strings.
 */
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { TIME_ZONE } from '../../lib/periods.ts';

/** Expense types a statement can list; each has a label in locales/*\/reports.json (expense.*). */
const EXPENSE_TYPES = [
  'heating',
  'hot-water',
  'cold-water',
  'electricity',
  'cooling',
  'gas',
  'meter-rental',
  'administration',
] as const;
type ExpenseType = (typeof EXPENSE_TYPES)[number];

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2025-06-30')
  .refine(
    (s) =>
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    'is not a calendar date',
  );

/** An amount with at most two decimals, as a JSON number or string; kept in minor units. */
const money = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const text = String(v).trim();
  if (!/^-?\d+(\.\d{1,2})?$/.test(text)) {
    ctx.addIssue({ code: 'custom', message: `"${text}" is not an amount with at most two decimals` });
    return z.NEVER;
  }
  const [whole, frac = ''] = text.replace('-', '').split('.');
  const minor = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return text.startsWith('-') ? -minor : minor;
});
const nonNegativeMoney = money.refine((v) => v >= 0, 'must not be negative');
const positive = z.number().positive();
const percent = z.number().min(0).max(100);

export const statementInputSchema = z
  .object({
    /** The landlord's tenancy reference (tenancies.tenancy_id), e.g. "T-1001-001". */
    tenancy: z.string().min(1),
    periodStart: isoDate,
    periodEnd: isoDate,
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as DKK'),
    fixedSharePercent: percent,
    variableSharePercent: percent,
    area: z.object({ tenantM2: positive, propertyM2: positive }),
    consumption: z.object({
      unit: z.enum(['hca-unit', 'kilo-watt-hour', 'cubic-meter']),
      tenant: z.number().min(0),
      property: positive,
    }),
    expenses: z
      .array(
        z.object({
          type: z.enum(EXPENSE_TYPES),
          propertyTotal: nonNegativeMoney,
          tenantFixed: nonNegativeMoney,
          tenantVariable: nonNegativeMoney,
        }),
      )
      .min(1),
    advancePayments: nonNegativeMoney,
    /** Optional; when given it must equal the shares minus the advance payments. */
    balance: money.optional(),
    degreeDays: z.object({ period: z.number().min(0), normalYear: z.number().positive() }),
    objectionDeadline: isoDate,
    /** Scale factors of the flat's meters (allocators' rating factors); a meter not listed has factor 1. */
    meters: z
      .array(
        z
          .object({ number: z.string().trim().min(1).max(100), scaleFactor: z.number().positive().max(1000) })
          .strict(),
      )
      .optional(),
    /**
     * German properties (CO2KostAufG): the building's CO₂ emissions over the period in kg and their cost, as
     * the fuel supplier's invoice states them.
     */
    co2: z
      .object({ buildingKg: z.number().min(0), cost: nonNegativeMoney })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const issue = (path: (string | number)[], message: string) =>
      ctx.addIssue({ code: 'custom', path, message });
    if (s.periodStart > s.periodEnd) issue(['periodEnd'], 'must not be before periodStart');
    if (s.objectionDeadline <= s.periodEnd) issue(['objectionDeadline'], 'must be after periodEnd');
    if (Math.abs(s.fixedSharePercent + s.variableSharePercent - 100) > 1e-9)
      issue(['variableSharePercent'], 'fixedSharePercent and variableSharePercent must add up to 100');
    if (s.area.tenantM2 > s.area.propertyM2) issue(['area', 'tenantM2'], 'is larger than the property');
    if (s.consumption.tenant > s.consumption.property)
      issue(['consumption', 'tenant'], "is more than the property's consumption");
    const seen = new Set<string>();
    s.expenses.forEach((e, i) => {
      if (seen.has(e.type)) issue(['expenses', i, 'type'], `"${e.type}" is listed twice`);
      seen.add(e.type);
      // The shares must follow the stated split (to within one currency unit, for the landlord's rounding).
      const fixed = (e.propertyTotal * s.fixedSharePercent * s.area.tenantM2) / (100 * s.area.propertyM2);
      const variable =
        (e.propertyTotal * s.variableSharePercent * s.consumption.tenant) / (100 * s.consumption.property);
      if (Math.abs(fixed - e.tenantFixed) > 100)
        issue(
          ['expenses', i, 'tenantFixed'],
          `should be about ${(fixed / 100).toFixed(2)} (fixed share by area)`,
        );
      if (Math.abs(variable - e.tenantVariable) > 100)
        issue(
          ['expenses', i, 'tenantVariable'],
          `should be about ${(variable / 100).toFixed(2)} (variable share by consumption)`,
        );
    });
    const numbers = new Set<string>();
    s.meters?.forEach((m, i) => {
      if (numbers.has(m.number)) issue(['meters', i, 'number'], `meter "${m.number}" is listed twice`);
      numbers.add(m.number);
    });
    const shares = s.expenses.reduce((sum, e) => sum + e.tenantFixed + e.tenantVariable, 0);
    if (s.balance !== undefined && s.balance !== shares - s.advancePayments)
      issue(
        ['balance'],
        `is ${(s.balance / 100).toFixed(2)} but the shares minus advance payments are ${((shares - s.advancePayments) / 100).toFixed(2)}`,
      );
  });

export type StatementInput = z.output<typeof statementInputSchema>;
/** A statement as written in an import file (amounts as strings or numbers). */
export type StatementFileEntry = z.input<typeof statementInputSchema>;

/** A file holds one statement, or { statements: [...] }; the shape is chosen first so errors stay precise. */
export function parseStatementJson(json: unknown) {
  const isList = typeof json === 'object' && json !== null && !Array.isArray(json) && 'statements' in json;
  return isList
    ? z
        .object({ statements: z.array(statementInputSchema).min(1) })
        .strict()
        .transform((f) => f.statements)
        .safeParse(json)
    : statementInputSchema.transform((s) => [s]).safeParse(json);
}

/** Minor units as a numeric string with two decimals: 123456 → "1234.56". */
function minorToDecimal(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The stored details of a statement (allocation_statements.details). */
export interface StatementDetails {
  expenses: { type: ExpenseType; propertyTotal: string; tenantFixed: string; tenantVariable: string }[];
  area: { tenantM2: number; propertyM2: number };
  consumption: { unit: string; tenant: number; property: number };
  degreeDays: { period: number; normalYear: number };
  /** Scale factors by meter number (absent: every meter's factor is 1). */
  meters?: { number: string; scaleFactor: number }[];
  /** CO2KostAufG basis of a German property: emissions (kg) and their cost (decimal string). */
  co2?: { buildingKg: number; cost: string };
}

/** The row values for one validated statement. */
export function statementRow(s: StatementInput) {
  const fixed = s.expenses.reduce((sum, e) => sum + e.tenantFixed, 0);
  const variable = s.expenses.reduce((sum, e) => sum + e.tenantVariable, 0);
  const details: StatementDetails = {
    expenses: s.expenses.map((e) => ({
      type: e.type,
      propertyTotal: minorToDecimal(e.propertyTotal),
      tenantFixed: minorToDecimal(e.tenantFixed),
      tenantVariable: minorToDecimal(e.tenantVariable),
    })),
    area: s.area,
    consumption: s.consumption,
    degreeDays: s.degreeDays,
    ...(s.meters ? { meters: s.meters } : {}),
    ...(s.co2 ? { co2: { buildingKg: s.co2.buildingKg, cost: minorToDecimal(s.co2.cost) } } : {}),
  };
  return {
    periodStart: s.periodStart,
    periodEnd: s.periodEnd,
    currency: s.currency,
    fixedSharePercent: String(s.fixedSharePercent),
    variableSharePercent: String(s.variableSharePercent),
    fixedAmount: minorToDecimal(fixed),
    variableAmount: minorToDecimal(variable),
    advancePayments: minorToDecimal(s.advancePayments),
    balance: minorToDecimal(fixed + variable - s.advancePayments),
    objectionDeadline: s.objectionDeadline,
    details,
  };
}

/**
 * Weeks a tenant has to object, counted from receiving the statement, by the property's country: Denmark's
 * billing order gives 6 weeks from receipt. Elsewhere no minimum is set here, but a deadline is never before the
 * statement exists.
 */
const OBJECTION_WEEKS: Readonly<Record<string, number>> = { DK: 6 };

/** The local day (YYYY-MM-DD, Copenhagen) a statement made at `now` is made on: what the deadline rule counts from. */
export function statementDay(now: Date): string {
  return Temporal.Instant.fromEpochMilliseconds(now.getTime())
    .toZonedDateTimeISO(TIME_ZONE)
    .toPlainDate()
    .toString();
}

/** The earliest lawful objection deadline of a statement made on `createdOn` (a local date, YYYY-MM-DD). */
export function earliestObjectionDeadline(createdOn: string, country: string): string {
  return Temporal.PlainDate.from(createdOn)
    .add({ weeks: OBJECTION_WEEKS[country] ?? 0 })
    .toString();
}

/** Why a deadline breaks the rule for a statement made on `createdOn`, or null when it keeps it. */
export function objectionDeadlineProblem(
  deadline: string,
  createdOn: string,
  country: string,
): string | null {
  if (deadline < createdOn) return `is before the statement is made (${createdOn})`;
  const earliest = earliestObjectionDeadline(createdOn, country);
  if (deadline < earliest)
    return `must be at least ${OBJECTION_WEEKS[country]} weeks after the statement reaches the tenant: ${earliest} or later for a statement made on ${createdOn}`;
  return null;
}

/**
 * What a statement's content must agree with beyond its own arithmetic: its scale factors name meters of the
 * tenancy's flat (`meterNumbers`), and the CO2KostAufG basis is given for a German property's heating and only
 * there. Returns field problems; empty when it keeps the rules. Shared by the import and the console's check.
 */
export function statementContentProblems(
  s: StatementInput,
  country: string,
  meterNumbers: ReadonlySet<string>,
): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  s.meters?.forEach((m, i) => {
    if (!meterNumbers.has(m.number))
      problems.push({
        field: `meters.${i}.number`,
        message: `"${m.number}" is not a meter of the tenancy's flat`,
      });
  });
  const heats = s.expenses.some((e) => e.type === 'heating' || e.type === 'hot-water');
  if (s.co2 && country !== 'DE')
    problems.push({ field: 'co2', message: 'applies to German properties only (CO2KostAufG)' });
  if (!s.co2 && country === 'DE' && heats)
    problems.push({
      field: 'co2',
      message:
        "is needed for a German property's heating: the building's CO₂ in kg and its cost (CO2KostAufG §7)",
    });
  return problems;
}

/** zod issues as "path: message" lines, for the CLI. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `  - ${i.path.join('.') || '(file)'}: ${i.message}`).join('\n');
}

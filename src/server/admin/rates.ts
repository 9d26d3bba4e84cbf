/**
 * Prices, fixed charges and CO₂ factors of a property (issue 21), all three as validity periods. History is never
 * rewritten silently:
 * - a change is a new validity period from a date after the start of every existing period of its series; the
 *   period it follows ends on that date;
 * - a period starting before today alters figures already shown, and so does a correction of an existing
 *   period's amount: those need `confirm` and a reason;
 * - every write is audited with before and after, in the same transaction.
 * The same checks run for the preview, so the form shows a refusal before the operator saves. The CO₂ factors
 * from before validity dates are periods valid from the beginning (validFrom null, migration 0016).
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { CONSUMPTION_QUANTITIES } from '../../lib/quantities.ts';
import type { Db } from '../db/client.ts';
import { fixedCharges, prices, propertyCo2Factors } from '../db/schema.ts';
import { forbidden } from '../graphql/errors.ts';
import { type Actor, recordAudit } from './audit.ts';
import { localToday, type RateImpact, rateImpact } from './rateImpact.ts';
import { type OperatorScope, requireProperty } from './scope.ts';
import { settingsError } from './settingsErrors.ts';

export type RateKind = 'PRICE' | 'FIXED_CHARGE' | 'CO2_FACTOR';

export interface RatePeriodView {
  id: number;
  kind: RateKind;
  quantity: string | null;
  chargeKind: string | null;
  amount: string;
  /** Null for a CO₂ factor (grams per unit). */
  currency: string | null;
  /** Null: from the beginning (a CO₂ factor from before validity dates). */
  validFrom: string | null;
  validTo: string | null;
}

const quantity = z.enum(CONSUMPTION_QUANTITIES as [string, ...string[]]);
const amount = z
  .string()
  .trim()
  .regex(/^\d{1,9}(\.\d{1,6})?$/, 'must be a non-negative number with at most 6 decimals, like 1.25');
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-01-01')
  .refine((s) => new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'is not a calendar date');
const reason = z.string().trim().min(5, 'at least 5 characters').max(500, 'at most 500 characters');

const changeSchema = z
  .object({
    propertyId: z.string(),
    kind: z.enum(['PRICE', 'FIXED_CHARGE', 'CO2_FACTOR']),
    quantity: quantity.nullish(),
    chargeKind: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9-]{0,39}$/, 'lower-case letters, digits and dashes, like meter-rent')
      .nullish(),
    amount,
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as DKK')
      .nullish(),
    validFrom: isoDate,
  })
  .superRefine((c, ctx) => {
    const money = c.kind !== 'CO2_FACTOR';
    if (c.kind !== 'FIXED_CHARGE' && !c.quantity)
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'a price or CO₂ factor is per quantity' });
    if (c.kind !== 'FIXED_CHARGE' && c.chargeKind)
      ctx.addIssue({ code: 'custom', path: ['chargeKind'], message: 'only fixed charges have a kind' });
    if (money && !c.currency)
      ctx.addIssue({
        code: 'custom',
        path: ['currency'],
        message: 'a price or fixed charge needs a currency',
      });
    if (!money && c.currency)
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'a CO₂ factor is in grams, not money' });
    if (c.kind === 'FIXED_CHARGE' && !c.chargeKind)
      ctx.addIssue({ code: 'custom', path: ['chargeKind'], message: 'a fixed charge needs its kind' });
  });
type Change = z.output<typeof changeSchema>;

/** Parses with zod; INVALID_RATE with each problem's field otherwise (nothing is written). */
function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => ({
    field: i.path.join('.') || 'input',
    message: i.message,
  }));
  throw settingsError(
    'INVALID_RATE',
    `Invalid input: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
    { problems },
  );
}

/** A change that alters shown figures needs confirm and a 5–500 character reason. */
function requireConfirmation(confirm: boolean | null | undefined, why: string | null | undefined): string {
  const parsed = reason.safeParse(why ?? '');
  if (!confirm || !parsed.success)
    throw settingsError(
      'CONFIRMATION_REQUIRED',
      'This changes figures already shown: confirm it and give a reason (5–500 characters)',
    );
  return parsed.data;
}

const priceView = (r: typeof prices.$inferSelect): RatePeriodView => ({
  id: r.id,
  kind: 'PRICE',
  quantity: r.quantity,
  chargeKind: null,
  amount: r.price,
  currency: r.currency,
  validFrom: r.validFrom,
  validTo: r.validTo,
});
const co2View = (r: typeof propertyCo2Factors.$inferSelect): RatePeriodView => ({
  id: r.id,
  kind: 'CO2_FACTOR',
  quantity: r.quantity,
  chargeKind: null,
  amount: r.gramPerQuantityUnit,
  currency: null,
  validFrom: r.validFrom,
  validTo: r.validTo,
});
const co2Order = [
  asc(propertyCo2Factors.quantity),
  sql`${propertyCo2Factors.validFrom} ASC NULLS FIRST`,
  asc(propertyCo2Factors.id),
];
const chargeView = (r: typeof fixedCharges.$inferSelect): RatePeriodView => ({
  id: r.id,
  kind: 'FIXED_CHARGE',
  quantity: r.quantity,
  chargeKind: r.kind,
  amount: r.amountPerYear,
  currency: r.currency,
  validFrom: r.validFrom,
  validTo: r.validTo,
});

/** A property's prices, fixed charges and CO₂ factors, each series oldest first. */
export async function readRates(db: Db, propertyId: number) {
  const [p, f, c] = await Promise.all([
    db
      .select()
      .from(prices)
      .where(eq(prices.propertyId, propertyId))
      .orderBy(asc(prices.quantity), asc(prices.validFrom), asc(prices.id)),
    db
      .select()
      .from(fixedCharges)
      .where(eq(fixedCharges.propertyId, propertyId))
      .orderBy(asc(fixedCharges.kind), asc(fixedCharges.quantity), asc(fixedCharges.validFrom)),
    db
      .select()
      .from(propertyCo2Factors)
      .where(eq(propertyCo2Factors.propertyId, propertyId))
      .orderBy(...co2Order),
  ]);
  return {
    propertyId,
    prices: p.map(priceView),
    fixedCharges: f.map(chargeView),
    co2Factors: c.map(co2View),
  };
}

/**
 * The periods of the change's series, oldest first (price, CO₂ factor: property and quantity; charge: property,
 * kind and quantity).
 */
async function seriesOf(db: Db, propertyId: number, c: Change): Promise<RatePeriodView[]> {
  if (c.kind === 'CO2_FACTOR')
    return (
      await db
        .select()
        .from(propertyCo2Factors)
        .where(
          and(eq(propertyCo2Factors.propertyId, propertyId), eq(propertyCo2Factors.quantity, c.quantity!)),
        )
        .orderBy(...co2Order)
    ).map(co2View);
  if (c.kind === 'PRICE')
    return (
      await db
        .select()
        .from(prices)
        .where(and(eq(prices.propertyId, propertyId), eq(prices.quantity, c.quantity!)))
        .orderBy(asc(prices.validFrom), asc(prices.id))
    ).map(priceView);
  return (
    await db
      .select()
      .from(fixedCharges)
      .where(
        and(
          eq(fixedCharges.propertyId, propertyId),
          eq(fixedCharges.kind, c.chargeKind!),
          c.quantity ? eq(fixedCharges.quantity, c.quantity) : isNull(fixedCharges.quantity),
        ),
      )
      .orderBy(asc(fixedCharges.validFrom), asc(fixedCharges.id))
  ).map(chargeView);
}

/** The plan of a new period: which period it closes, and its own end. Refuses what would rewrite history. */
function planNewPeriod(series: RatePeriodView[], c: Change) {
  const later = series.find((r) => r.validFrom !== null && r.validFrom >= c.validFrom);
  if (later)
    throw settingsError(
      'RATE_HISTORY_LOCKED',
      `A period starts on ${later.validFrom}: a new period must start after it (correct that period instead)`,
    );
  const last = series.at(-1);
  const closes = last && (last.validTo === null || last.validTo > c.validFrom) ? last : null;
  return { closes, validTo: closes ? closes.validTo : null };
}

async function lockProperty(tx: Db, propertyId: number) {
  // One rate change of a property at a time, so two new periods cannot both close the same one.
  await tx.execute(sql`SELECT id FROM properties WHERE id = ${propertyId} FOR UPDATE`);
}

/** The audit log's name of each kind (action `<name>.add_period` / `<name>.correct`, subject type). */
const AUDIT: Record<RateKind, string> = {
  PRICE: 'price',
  FIXED_CHARGE: 'fixed_charge',
  CO2_FACTOR: 'co2_factor',
};

/** Ends a period of the kind's table on a date. */
async function closePeriod(tx: Db, kind: RateKind, id: number, validTo: string) {
  if (kind === 'PRICE') await tx.update(prices).set({ validTo }).where(eq(prices.id, id));
  else if (kind === 'FIXED_CHARGE')
    await tx.update(fixedCharges).set({ validTo }).where(eq(fixedCharges.id, id));
  else await tx.update(propertyCo2Factors).set({ validTo }).where(eq(propertyCo2Factors.id, id));
}

/** Inserts the new period into the kind's table. */
async function insertPeriod(tx: Db, propertyId: number, c: Change, validTo: string | null) {
  const dates = { propertyId, validFrom: c.validFrom, validTo };
  if (c.kind === 'CO2_FACTOR') {
    const [row] = await tx
      .insert(propertyCo2Factors)
      .values({ ...dates, quantity: c.quantity!, gramPerQuantityUnit: c.amount })
      .returning();
    return co2View(row!);
  }
  if (c.kind === 'PRICE') {
    const [row] = await tx
      .insert(prices)
      .values({ ...dates, currency: c.currency!, quantity: c.quantity!, price: c.amount })
      .returning();
    return priceView(row!);
  }
  const [row] = await tx
    .insert(fixedCharges)
    .values({
      ...dates,
      currency: c.currency!,
      kind: c.chargeKind!,
      quantity: c.quantity ?? null,
      amountPerYear: c.amount,
    })
    .returning();
  return chargeView(row!);
}

/** What adding the period would touch; the same refusals as `addRatePeriod`. */
export async function previewRatePeriod(db: Db, scope: OperatorScope, input: unknown): Promise<RateImpact> {
  const c = parse(changeSchema, input);
  const property = await requireProperty(db, scope, c.propertyId);
  const plan = planNewPeriod(await seriesOf(db, property.id, c), c);
  return rateImpact(db, property.id, c.quantity ?? null, c.validFrom, plan.validTo);
}

/** Adds a new validity period (closing the one it follows), audited. */
export async function addRatePeriod(
  db: Db,
  scope: OperatorScope,
  actor: Actor,
  input: unknown,
  confirm: boolean | null | undefined,
  why: string | null | undefined,
) {
  const c = parse(changeSchema, input);
  const property = await requireProperty(db, scope, c.propertyId);
  const reasonText = c.validFrom < localToday() ? requireConfirmation(confirm, why) : null;
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    await lockProperty(tx, property.id);
    const plan = planNewPeriod(await seriesOf(tx, property.id, c), c);
    if (plan.closes) await closePeriod(tx, c.kind, plan.closes.id, c.validFrom);
    const added = await insertPeriod(tx, property.id, c, plan.validTo);
    await recordAudit(tx, actor, {
      action: `${AUDIT[c.kind]}.add_period`,
      subjectType: AUDIT[c.kind],
      subjectId: added.id,
      propertyId: property.id,
      reason: reasonText,
      before: { closed: plan.closes },
      after: { closed: plan.closes ? { ...plan.closes, validTo: c.validFrom } : null, added },
    });
  });
  return readRates(db, property.id);
}

const correctionSchema = z.object({
  id: z.string().regex(/^\d{1,9}$/, 'not a period id'),
  kind: z.enum(['PRICE', 'FIXED_CHARGE', 'CO2_FACTOR']),
  amount,
});

/** The period to correct, in the caller's scope; FORBIDDEN for unknown ids too (ids cannot be probed). */
async function periodOf(db: Db, scope: OperatorScope, id: number, kind: RateKind) {
  const [row] =
    kind === 'PRICE'
      ? (await db.select().from(prices).where(eq(prices.id, id))).map((r) => ({
          ...priceView(r),
          propertyId: r.propertyId,
        }))
      : kind === 'FIXED_CHARGE'
        ? (await db.select().from(fixedCharges).where(eq(fixedCharges.id, id))).map((r) => ({
            ...chargeView(r),
            propertyId: r.propertyId,
          }))
        : (await db.select().from(propertyCo2Factors).where(eq(propertyCo2Factors.id, id))).map((r) => ({
            ...co2View(r),
            propertyId: r.propertyId,
          }));
  if (!row) throw forbidden();
  const property = await requireProperty(db, scope, row.propertyId);
  return { row, property };
}

export async function previewRateCorrection(db: Db, scope: OperatorScope, input: unknown) {
  const c = parse(correctionSchema, input);
  const { row, property } = await periodOf(db, scope, Number(c.id), c.kind);
  return periodImpact(db, property.id, row);
}

/**
 * The impact of changing a period's amount. A period valid from the beginning changes every month of every
 * tenancy it reaches: from the earliest tenancy's start (or today, without one).
 */
async function periodImpact(db: Db, propertyId: number, row: RatePeriodView) {
  if (row.validFrom !== null) return rateImpact(db, propertyId, row.quantity, row.validFrom, row.validTo);
  const { tenancies } = await rateImpact(db, propertyId, row.quantity, '1900-01-01', row.validTo);
  const from = [localToday(), ...tenancies.map((t) => t.start)].sort()[0]!;
  return rateImpact(db, propertyId, row.quantity, from, row.validTo);
}

/** Corrects an existing period's amount: an explicit, confirmed, audited rewrite of its months. */
export async function correctRate(
  db: Db,
  scope: OperatorScope,
  actor: Actor,
  input: unknown,
  confirm: boolean | null | undefined,
  why: string | null | undefined,
) {
  const c = parse(correctionSchema, input);
  const { row, property } = await periodOf(db, scope, Number(c.id), c.kind);
  const reasonText = requireConfirmation(confirm, why);
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    if (c.kind === 'PRICE') await tx.update(prices).set({ price: c.amount }).where(eq(prices.id, row.id));
    else if (c.kind === 'FIXED_CHARGE')
      await tx.update(fixedCharges).set({ amountPerYear: c.amount }).where(eq(fixedCharges.id, row.id));
    else
      await tx
        .update(propertyCo2Factors)
        .set({ gramPerQuantityUnit: c.amount })
        .where(eq(propertyCo2Factors.id, row.id));
    const { propertyId: _p, ...before } = row;
    await recordAudit(tx, actor, {
      action: `${AUDIT[c.kind]}.correct`,
      subjectType: AUDIT[c.kind],
      subjectId: row.id,
      propertyId: property.id,
      reason: reasonText,
      before,
      after: { ...before, amount: c.amount },
    });
  });
  return readRates(db, property.id);
}

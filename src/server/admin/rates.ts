/**
 * Prices, fixed charges and CO₂ factors of a property (issue 21). History is never rewritten silently:
 * - a change of a price or fixed charge is a new validity period from a date after the start of every existing
 *   period of its series; the period it follows ends on that date;
 * - a period starting before today alters figures already shown, and so does a correction of an existing
 *   period's amount or a CO₂ factor (which has no validity dates): those need `confirm` and a reason;
 * - every write is audited with before and after, in the same transaction.
 * The same checks run for the preview, so the form shows a refusal before the operator saves.
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

export type RateKind = 'PRICE' | 'FIXED_CHARGE';

export interface RatePeriodView {
  id: number;
  kind: RateKind;
  quantity: string | null;
  chargeKind: string | null;
  amount: string;
  currency: string;
  validFrom: string;
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
    kind: z.enum(['PRICE', 'FIXED_CHARGE']),
    quantity: quantity.nullish(),
    chargeKind: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9-]{0,39}$/, 'lower-case letters, digits and dashes, like meter-rent')
      .nullish(),
    amount,
    currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as DKK'),
    validFrom: isoDate,
  })
  .superRefine((c, ctx) => {
    if (c.kind === 'PRICE' && !c.quantity)
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'a price is per quantity' });
    if (c.kind === 'PRICE' && c.chargeKind)
      ctx.addIssue({ code: 'custom', path: ['chargeKind'], message: 'only fixed charges have a kind' });
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
      .orderBy(asc(propertyCo2Factors.quantity)),
  ]);
  return {
    propertyId,
    prices: p.map(priceView),
    fixedCharges: f.map(chargeView),
    co2Factors: c.map((r) => ({ quantity: r.quantity, gramPerUnit: r.gramPerQuantityUnit })),
  };
}

/** The periods of the change's series (price: property and quantity; charge: property, kind and quantity). */
async function seriesOf(db: Db, propertyId: number, c: Change): Promise<RatePeriodView[]> {
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
  const later = series.find((r) => r.validFrom >= c.validFrom);
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
    const table = c.kind === 'PRICE' ? prices : fixedCharges;
    if (plan.closes) await tx.update(table).set({ validTo: c.validFrom }).where(eq(table.id, plan.closes.id));
    const values = {
      propertyId: property.id,
      currency: c.currency,
      validFrom: c.validFrom,
      validTo: plan.validTo,
    };
    const [added] =
      c.kind === 'PRICE'
        ? (
            await tx
              .insert(prices)
              .values({ ...values, quantity: c.quantity!, price: c.amount })
              .returning()
          ).map(priceView)
        : (
            await tx
              .insert(fixedCharges)
              .values({
                ...values,
                kind: c.chargeKind!,
                quantity: c.quantity ?? null,
                amountPerYear: c.amount,
              })
              .returning()
          ).map(chargeView);
    await recordAudit(tx, actor, {
      action: c.kind === 'PRICE' ? 'price.add_period' : 'fixed_charge.add_period',
      subjectType: c.kind === 'PRICE' ? 'price' : 'fixed_charge',
      subjectId: added!.id,
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
  kind: z.enum(['PRICE', 'FIXED_CHARGE']),
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
      : (await db.select().from(fixedCharges).where(eq(fixedCharges.id, id))).map((r) => ({
          ...chargeView(r),
          propertyId: r.propertyId,
        }));
  if (!row) throw forbidden();
  const property = await requireProperty(db, scope, row.propertyId);
  return { row, property };
}

export async function previewRateCorrection(db: Db, scope: OperatorScope, input: unknown) {
  const c = parse(correctionSchema, input);
  const { row, property } = await periodOf(db, scope, Number(c.id), c.kind);
  return rateImpact(db, property.id, row.quantity, row.validFrom, row.validTo);
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
    else await tx.update(fixedCharges).set({ amountPerYear: c.amount }).where(eq(fixedCharges.id, row.id));
    const { propertyId: _p, ...before } = row;
    await recordAudit(tx, actor, {
      action: c.kind === 'PRICE' ? 'price.correct' : 'fixed_charge.correct',
      subjectType: c.kind === 'PRICE' ? 'price' : 'fixed_charge',
      subjectId: row.id,
      propertyId: property.id,
      reason: reasonText,
      before,
      after: { ...before, amount: c.amount },
    });
  });
  return readRates(db, property.id);
}

const co2Schema = z.object({
  propertyId: z.string(),
  quantity,
  gramPerUnit: z
    .string()
    .trim()
    .regex(/^\d{1,6}(\.\d{1,4})?$/, 'must be a non-negative number of grams, like 120.5'),
});

/** CO₂ factors have no validity dates: a change applies to every month, so it is always a correction. */
async function co2Range(db: Db, propertyId: number, q: string) {
  const { tenancies } = await rateImpact(db, propertyId, q, '1900-01-01', null);
  const from = [localToday(), ...tenancies.map((t) => t.start)].sort()[0]!;
  return rateImpact(db, propertyId, q, from, null);
}

export async function previewCo2Factor(db: Db, scope: OperatorScope, input: unknown) {
  const c = parse(co2Schema, input);
  const property = await requireProperty(db, scope, c.propertyId);
  return co2Range(db, property.id, c.quantity);
}

export async function setCo2Factor(
  db: Db,
  scope: OperatorScope,
  actor: Actor,
  input: unknown,
  confirm: boolean | null | undefined,
  why: string | null | undefined,
) {
  const c = parse(co2Schema, input);
  const property = await requireProperty(db, scope, c.propertyId);
  const reasonText = requireConfirmation(confirm, why);
  await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const where = and(
      eq(propertyCo2Factors.propertyId, property.id),
      eq(propertyCo2Factors.quantity, c.quantity),
    );
    const [before] = await tx.select().from(propertyCo2Factors).where(where);
    await tx
      .insert(propertyCo2Factors)
      .values({ propertyId: property.id, quantity: c.quantity, gramPerQuantityUnit: c.gramPerUnit })
      .onConflictDoUpdate({
        target: [propertyCo2Factors.propertyId, propertyCo2Factors.quantity],
        set: { gramPerQuantityUnit: c.gramPerUnit },
      });
    await recordAudit(tx, actor, {
      action: 'co2_factor.set',
      subjectType: 'co2_factor',
      subjectId: `${property.id}:${c.quantity}`,
      propertyId: property.id,
      reason: reasonText,
      before: before ? { quantity: c.quantity, gramPerUnit: before.gramPerQuantityUnit } : null,
      after: { quantity: c.quantity, gramPerUnit: c.gramPerUnit },
    });
  });
  return readRates(db, property.id);
}

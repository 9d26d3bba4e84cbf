/** The settings pages' calls (issue 21): prices, fixed charges and CO₂ factors; report texts; statements. */
import { actorOf } from '../audit.ts';
import type { RateImpact } from '../rateImpact.ts';
import * as rates from '../rates.ts';
import * as texts from '../reportTexts.ts';
import { requireOperator, requireProperty } from '../scope.ts';
import * as statements from '../statementsUpload.ts';
import type { MutationResolvers, QueryResolvers } from '../types.generated.ts';

type Rates = Awaited<ReturnType<typeof rates.readRates>>;

const ratesToApi = (r: Rates) => ({
  ...r,
  propertyId: String(r.propertyId),
  prices: r.prices.map((p) => ({ ...p, id: String(p.id) })),
  fixedCharges: r.fixedCharges.map((p) => ({ ...p, id: String(p.id) })),
  co2Factors: r.co2Factors.map((p) => ({ ...p, id: String(p.id) })),
});

const impactToApi = (i: RateImpact) => ({
  ...i,
  tenancies: i.tenancies.map((t) => ({ ...t, id: String(t.id) })),
});

export const propertyRates: NonNullable<QueryResolvers['propertyRates']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  const property = await requireProperty(ctx.db, scope, args.propertyId);
  return ratesToApi(await rates.readRates(ctx.db, property.id));
};

export const previewRatePeriod: NonNullable<QueryResolvers['previewRatePeriod']> = async (_p, args, ctx) =>
  impactToApi(await rates.previewRatePeriod(ctx.db, await requireOperator(ctx), args.input));

export const previewRateCorrection: NonNullable<QueryResolvers['previewRateCorrection']> = async (
  _p,
  args,
  ctx,
) => impactToApi(await rates.previewRateCorrection(ctx.db, await requireOperator(ctx), args.input));

export const addRatePeriod: NonNullable<MutationResolvers['addRatePeriod']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  return ratesToApi(
    await rates.addRatePeriod(ctx.db, scope, actorOf(scope), args.input, args.confirm, args.reason),
  );
};

export const correctRate: NonNullable<MutationResolvers['correctRate']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  return ratesToApi(
    await rates.correctRate(ctx.db, scope, actorOf(scope), args.input, args.confirm, args.reason),
  );
};

export const reportTexts: NonNullable<QueryResolvers['reportTexts']> = async (_p, args, ctx) =>
  texts.reportTexts(ctx.db, await requireOperator(ctx), args.propertyId);

export const updateReportTexts: NonNullable<MutationResolvers['updateReportTexts']> = async (
  _p,
  args,
  ctx,
) => {
  const scope = await requireOperator(ctx);
  return texts.updateReportTexts(ctx.db, scope, actorOf(scope), args.propertyId, args.settings);
};

export const statementCoverage: NonNullable<QueryResolvers['statementCoverage']> = async (_p, args, ctx) =>
  statements.statementCoverage(ctx.db, await requireOperator(ctx), args.propertyId);

export const uploadStatements: NonNullable<MutationResolvers['uploadStatements']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  return statements.uploadStatements(
    ctx.db,
    scope,
    actorOf(scope),
    args.propertyId,
    args.files,
    args.dryRun ?? false,
  );
};

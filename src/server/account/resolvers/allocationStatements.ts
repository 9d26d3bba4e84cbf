/** Query.allocationStatements and Tenancy.latestAllocationStatement: a member's statements of a tenancy. */
import { type GraphQLContext, requireUserId } from '../../graphql/context.ts';
import { forbidden } from '../../graphql/errors.ts';
import {
  statementBasis,
  statementFileName,
  statementPdfPath,
  tenancyStatements,
} from '../../statements/access.ts';
import { statementCo2Split } from '../../statements/extras.ts';
import { scaleFactors, statementMeterReadings } from '../../statements/meters.ts';
import type {
  AllocationStatementSummaryResolvers,
  QueryResolvers,
  TenancyResolvers,
} from '../types.generated.ts';

async function load(tenancyId: string, ctx: GraphQLContext) {
  const userId = requireUserId(ctx);
  const rows = /^\d{1,9}$/.test(tenancyId)
    ? await tenancyStatements(ctx.db, userId, Number(tenancyId))
    : null;
  if (!rows) throw forbidden();
  return rows.map((s) => ({
    id: String(s.id),
    periodStartDate: s.periodStart,
    periodEndDate: s.periodEnd,
    expenseTypes: s.details.expenses.map((e) => e.type),
    currency: s.currency,
    balance: s.balance,
    objectionDeadline: s.objectionDeadline,
    fileName: statementFileName(s),
    url: statementPdfPath(s.id),
  }));
}

export const allocationStatements: NonNullable<QueryResolvers['allocationStatements']> = (
  _parent,
  args,
  ctx,
) => load(args.tenancyId, ctx);

export const tenancyLatestAllocationStatement: NonNullable<
  TenancyResolvers['latestAllocationStatement']
> = async (parent, _args, ctx) => {
  const [latest] = await load(parent.id, ctx);
  return latest ?? null;
};

/** Two decimals from minor units. */
const decimal = (minor: number) => (minor / 100).toFixed(2);

/**
 * The summary's computed fields. The parent came from `load`, which checked membership, so the statement is the
 * caller's to read.
 */
export const allocationStatementSummary: AllocationStatementSummaryResolvers = {
  meterReadings: async (parent, _args, ctx) => {
    const basis = await statementBasis(ctx.db, Number(parent.id));
    if (!basis) return [];
    const readings = await statementMeterReadings(
      ctx.db,
      basis.apartmentId,
      basis,
      scaleFactors(basis.details),
    );
    return readings.map((r) => ({
      meterNumber: r.meterNumber,
      quantity: r.quantity,
      room: r.room,
      startAt: r.start?.at ?? null,
      startValue: r.start?.value ?? null,
      endAt: r.end?.at ?? null,
      endValue: r.end?.value ?? null,
      scaleFactor: r.scaleFactor,
      consumption: r.consumption,
    }));
  },
  co2Split: async (parent, _args, ctx) => {
    const basis = await statementBasis(ctx.db, Number(parent.id));
    const split = basis && statementCo2Split(basis, basis.country);
    if (!split || !basis.details.co2) return null;
    return {
      buildingKg: basis.details.co2.buildingKg,
      kgPerM2Year: split.kgPerM2Year,
      stage: split.stage,
      tenantPercent: split.tenantPercent,
      landlordPercent: split.landlordPercent,
      co2Cost: basis.details.co2.cost,
      tenantCo2Cost: decimal(split.tenantCo2Cost),
      tenantPart: decimal(split.tenantPart),
      landlordPart: decimal(split.landlordPart),
    };
  },
};

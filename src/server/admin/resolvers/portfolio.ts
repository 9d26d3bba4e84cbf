/** `portfolio`: the caller's properties with freshness, issues and tenants, a page at a time. */
import { badInput } from '../../graphql/errors.ts';
import { type PortfolioRow, readPortfolio } from '../portfolio.ts';
import { requireOperator } from '../scope.ts';
import type { QueryResolvers } from '../types.generated.ts';

const PAGE_MAX = 200;

const instant = (value: Date | string | null) =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();

const toRow = (r: PortfolioRow) => ({
  property: {
    id: String(r.id),
    number: r.number,
    name: r.name,
    address: r.address,
    zipcode: r.zipcode,
    city: r.city,
  },
  apartments: r.apartments,
  meters: r.meters,
  metersReporting: r.metersReporting,
  reportingShare: r.meters > 0 ? r.metersReporting / r.meters : null,
  lastReadingAt: instant(r.lastReadingAt),
  openIssues: r.openIssues,
  tenancies: r.tenancies,
  invited: r.invited,
  activated: r.activated,
});

export const portfolio: NonNullable<QueryResolvers['portfolio']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  const limit = args.first ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX)
    throw badInput(`first must be 1–${PAGE_MAX}`);
  const offset = args.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > 1_000_000)
    throw badInput('offset must be 0 or more');
  const search = args.filter?.search ?? null;
  if (search && search.length > 200) throw badInput('search must be at most 200 characters');
  const now = new Date();
  const query = {
    search,
    freshness: args.filter?.freshness ?? 'ALL',
    withOpenIssues: args.filter?.withOpenIssues ?? false,
    sort: args.sort?.key ?? 'NUMBER',
    descending: args.sort?.direction === 'DESC',
    limit,
    offset,
    now,
  } as const;
  const rows = await readPortfolio(ctx.db, scope, query);
  // A page past the end still says how many there are.
  const total =
    rows[0]?.total ??
    (offset > 0
      ? ((await readPortfolio(ctx.db, scope, { ...query, limit: 1, offset: 0 }))[0]?.total ?? 0)
      : 0);
  return { rows: rows.map(toRow), total, asOf: now.toISOString() };
};

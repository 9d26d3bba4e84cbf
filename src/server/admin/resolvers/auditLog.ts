/** `auditLog`: the entries the caller's role may read, newest first, filtered, a page at a time. */
import { parseId } from '../../account/users.ts';
import { badInput } from '../../graphql/errors.ts';
import { parseInstant, readAudit, auditFacets as readFacets } from '../audit.ts';
import { requireOperator, requireProperty } from '../scope.ts';
import type { QueryResolvers } from '../types.generated.ts';

const PAGE_MAX = 500;

export const auditLog: NonNullable<QueryResolvers['auditLog']> = async (_p, args, ctx) => {
  const scope = await requireOperator(ctx);
  const limit = args.first ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_MAX)
    throw badInput(`first must be 1–${PAGE_MAX}`);
  const filter = args.filter ?? {};
  const propertyId = filter.propertyId ? (await requireProperty(ctx.db, scope, filter.propertyId)).id : null;
  const beforeId = args.after ? parseId(args.after) : null;
  if (args.after && beforeId === null) throw badInput('after must be a cursor from a previous page');
  const rows = await readAudit(ctx.db, scope, {
    search: filter.search?.slice(0, 200),
    actor: filter.actor?.slice(0, 320),
    action: filter.action,
    propertyId,
    from: parseInstant(filter.from, 'from'),
    to: parseInstant(filter.to, 'to'),
    beforeId,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  return {
    entries: page.map((r) => ({
      id: String(r.id),
      at: r.at.toISOString(),
      actor: r.actor,
      operatorId: r.operatorId === null ? null : String(r.operatorId),
      action: r.action,
      subjectType: r.subjectType,
      subjectId: r.subjectId,
      propertyId: r.propertyId === null ? null : String(r.propertyId),
      reason: r.reason,
      before: r.before,
      after: r.after,
    })),
    nextCursor: rows.length > limit ? String(page[page.length - 1]!.id) : null,
  };
};

/** `auditFacets`: the actor and action choices of the audit page, in the caller's scope. */
export const auditFacets: NonNullable<QueryResolvers['auditFacets']> = async (_p, _a, ctx) =>
  readFacets(ctx.db, await requireOperator(ctx));

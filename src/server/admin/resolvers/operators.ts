/** The console's operator management and the caller's own view; every call checks the caller's role. */
import { parseId } from '../../account/users.ts';
import { forbidden } from '../../graphql/errors.ts';
import { actorOf } from '../audit.ts';
import {
  createOperator as create,
  deactivateOperator as deactivate,
  type OperatorView,
  operatorViews,
  setOperatorAccess as setAccess,
} from '../operators.ts';
import { assertOrgAdmin, type Role, requireOperator } from '../scope.ts';
import type { MutationResolvers, Operator, OperatorRole, QueryResolvers } from '../types.generated.ts';

const roleToApi = (role: Role): OperatorRole => (role === 'org_admin' ? 'ORG_ADMIN' : 'PROPERTY_MANAGER');
const roleFromApi = (role: OperatorRole): Role => (role === 'ORG_ADMIN' ? 'org_admin' : 'property_manager');

const toApi = (v: OperatorView): Operator => ({
  id: String(v.id),
  email: v.email,
  name: v.name,
  role: roleToApi(v.role),
  organisation: { id: String(v.accountId), name: v.accountName },
  propertyIds: v.propertyIds.map(String),
  isActive: v.isActive,
  secondFactorEnabled: v.secondFactorEnabled,
});

const userIdOf = (raw: string) => {
  const id = parseId(raw);
  if (id === null) throw forbidden();
  return id;
};

export const operatorMe: NonNullable<QueryResolvers['operatorMe']> = async (_p, _a, ctx) => {
  const scope = await requireOperator(ctx);
  const [me] = await operatorViews(ctx.db, scope.accountId, scope.userId);
  if (!me) throw forbidden();
  return toApi(me);
};

export const operators: NonNullable<QueryResolvers['operators']> = async (_p, _a, ctx) => {
  const scope = await requireOperator(ctx);
  assertOrgAdmin(scope);
  return (await operatorViews(ctx.db, scope.accountId)).map(toApi);
};

export const createOperator: NonNullable<MutationResolvers['createOperator']> = async (
  _p,
  { input },
  ctx,
) => {
  const scope = await requireOperator(ctx);
  assertOrgAdmin(scope);
  const created = await create(ctx.db, actorOf(scope), {
    email: input.email,
    name: input.name,
    role: roleFromApi(input.role),
    accountId: scope.accountId,
    propertyIds: input.propertyIds,
  });
  return { operator: toApi(created.operator), initialPassword: created.initialPassword };
};

export const setOperatorAccess: NonNullable<MutationResolvers['setOperatorAccess']> = async (
  _p,
  args,
  ctx,
) => {
  const scope = await requireOperator(ctx);
  assertOrgAdmin(scope);
  const view = await setAccess(
    ctx.db,
    actorOf(scope),
    scope.accountId,
    userIdOf(args.userId),
    roleFromApi(args.role),
    args.propertyIds,
  );
  return toApi(view);
};

export const deactivateOperator: NonNullable<MutationResolvers['deactivateOperator']> = async (
  _p,
  args,
  ctx,
) => {
  const scope = await requireOperator(ctx);
  assertOrgAdmin(scope);
  return toApi(await deactivate(ctx.db, actorOf(scope), scope.accountId, userIdOf(args.userId)));
};

/**
 * Operator login: email and password through the tenant login's `authenticate` (same throttles: per email and
 * per client address, shared with the tenant app), then a TOTP code or a recovery code for a 5-minute
 * single-use challenge; wrong codes count as failed logins. Tokens, refresh and logout are the tenant app's,
 * signed for the admin backend's own issuer and audience.
 */
import { eq } from 'drizzle-orm';
import { consumeOneTimeToken, issueOneTimeToken, peekOneTimeToken } from '../../account/oneTimeTokens.ts';
import { authenticate, type IssuedTokens, issueTokens } from '../../auth/login.ts';
import { revokeRefreshToken, unixSeconds } from '../../auth/refresh.ts';
import { refreshSession, refreshTokenInput } from '../../auth/refresh-session.ts';
import { assertNotThrottled, clearThrottle, countFailure, type ThrottleName } from '../../auth/throttle.ts';
import { operatorRoles, users } from '../../db/schema.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { invalidCredentials, parseInput } from '../../graphql/errors.ts';
import { recordAudit } from '../audit.ts';
import { challengeExpired, secondFactorInvalid } from '../errors.ts';
import {
  acceptRecoveryCode,
  acceptTotp,
  hasConfirmedTotp,
  newRecoveryCodes,
  startTotpSetup,
} from '../secondFactor.ts';
import type { MutationResolvers } from '../types.generated.ts';

/** An active operator with a role, by user id; null otherwise. */
async function operatorUser(ctx: GraphQLContext, userId: number) {
  const [row] = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      isActive: users.isActive,
      isAdmin: users.isAdmin,
      accountId: operatorRoles.accountId,
    })
    .from(users)
    .innerJoin(operatorRoles, eq(operatorRoles.userId, users.id))
    .where(eq(users.id, userId));
  return row?.isActive && row.isAdmin ? row : null;
}

const session = (issued: IssuedTokens, recoveryCodes: string[] | null) => ({
  payload: issued.claims,
  token: issued.token,
  refreshToken: issued.refreshToken,
  refreshExpiresIn: unixSeconds(issued.refreshExpiresAt),
  recoveryCodes,
});

export const operatorLogin: NonNullable<MutationResolvers['operatorLogin']> = async (_parent, args, ctx) => {
  const user = await authenticate(ctx.db, args, ctx);
  const operator = await operatorUser(ctx, user.id);
  if (!operator) {
    // A tenant app user's right password is still no console login; it answers like a wrong one.
    await countFailure(ctx.db, [['loginIp', ctx.clientAddress]]);
    ctx.logger.warn({ userId: user.id, clientAddress: ctx.clientAddress }, 'console login by a non-operator');
    throw invalidCredentials();
  }
  const { token: challenge } = await issueOneTimeToken(ctx.db, 'operator_mfa', user.id, { replace: true });
  if (await hasConfirmedTotp(ctx.db, user.id)) {
    return { next: 'TOTP_REQUIRED', challenge, otpauthUri: null, qrSvg: null, secret: null };
  }
  const setup = await startTotpSetup(ctx.db, operator);
  return { next: 'TOTP_SETUP_REQUIRED', challenge, ...setup };
};

export const operatorSecondFactor: NonNullable<MutationResolvers['operatorSecondFactor']> = async (
  _parent,
  args,
  ctx,
) => {
  const pending = await peekOneTimeToken(ctx.db, 'operator_mfa', args.challenge);
  if (!pending) throw challengeExpired();
  const operator = await operatorUser(ctx, pending.userId);
  if (!operator) throw challengeExpired();
  const checks: Array<[ThrottleName, string | null]> = [
    ['loginAccount', operator.email],
    ['loginIp', ctx.clientAddress],
  ];
  await assertNotThrottled(ctx.db, checks);
  const code = args.code.trim();
  let outcome = await acceptTotp(ctx.db, operator, code);
  let usedRecovery = false;
  if (!outcome && (await hasConfirmedTotp(ctx.db, operator.id))) {
    usedRecovery = await acceptRecoveryCode(ctx.db, operator.id, code);
    if (usedRecovery) outcome = 'confirmed';
  }
  if (!outcome) {
    await countFailure(ctx.db, checks);
    ctx.logger.warn({ userId: operator.id, clientAddress: ctx.clientAddress }, 'wrong second factor');
    throw secondFactorInvalid();
  }
  // Only one of two concurrent uses of the challenge gets tokens.
  if (!(await consumeOneTimeToken(ctx.db, 'operator_mfa', args.challenge))) throw challengeExpired();
  await clearThrottle(ctx.db, 'loginAccount', operator.email);
  const who = { operatorId: operator.id, actor: operator.email, accountId: operator.accountId };
  let recoveryCodes: string[] | null = null;
  if (outcome === 'setup') {
    recoveryCodes = await ctx.db.transaction(async (tx) => {
      const codes = await newRecoveryCodes(tx, operator.id);
      await recordAudit(tx, who, {
        action: 'operator.second_factor_set_up',
        subjectType: 'operator',
        subjectId: operator.id,
      });
      return codes;
    });
  } else if (usedRecovery) {
    await recordAudit(ctx.db, who, {
      action: 'operator.recovery_code_used',
      subjectType: 'operator',
      subjectId: operator.id,
    });
  }
  const issued = await issueTokens(ctx.db, ctx.services.config, 'admin', ctx.services.keys.admin, operator);
  ctx.logger.info({ userId: operator.id, recoveryCode: usedRecovery }, 'console login');
  return session(issued, recoveryCodes);
};

export const refreshToken: NonNullable<MutationResolvers['refreshToken']> = async (_parent, args, ctx) => {
  const issued = await refreshSession(
    ctx.db,
    ctx.services.config,
    'admin',
    ctx.services.keys.admin,
    args.refreshToken,
  );
  return session(issued, null);
};

export const revokeToken: NonNullable<MutationResolvers['revokeToken']> = async (_parent, args, ctx) => {
  const token = parseInput(refreshTokenInput, args.refreshToken);
  const revokedAt = await revokeRefreshToken(ctx.db, 'admin', token);
  return { revoked: unixSeconds(revokedAt) };
};

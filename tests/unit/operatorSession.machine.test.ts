import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  type CodeStep,
  type OperatorProfile,
  operatorSessionMachine,
  type PasswordStep,
} from '../../src/machines/operatorSession.machine.ts';
import type { BackendTokens } from '../../src/machines/session.machine.ts';

const tokens: BackendTokens = {
  access: { token: 'a', expiresAt: Date.now() + 60_000 },
  refreshToken: 'r',
  refreshExpiresAt: null,
};
const operator: OperatorProfile = {
  id: '1',
  email: 'op@x.test',
  name: 'Op',
  role: 'ORG_ADMIN',
  organisation: { id: '1', name: 'Org' },
  propertyIds: [],
};

function start(opts: {
  stored?: BackendTokens | null;
  password?: (input: { email: string; password: string }) => PasswordStep;
  code?: (input: { challenge: string; code: string }) => CodeStep;
  load?: () => OperatorProfile;
}) {
  const persisted: Array<BackendTokens | null> = [];
  const revoked: Array<BackendTokens | null> = [];
  const machine = operatorSessionMachine.provide({
    actors: {
      restore: fromPromise(async () => opts.stored ?? null),
      loadOperator: fromPromise(async () => (opts.load ?? (() => operator))()),
      checkPassword: fromPromise(async ({ input }) => {
        if (!opts.password) throw new Error('INVALID_CREDENTIALS');
        return opts.password(input);
      }),
      checkCode: fromPromise(async ({ input }) => {
        if (!opts.code) throw new Error('SECOND_FACTOR_INVALID');
        return opts.code(input);
      }),
      revoke: fromPromise(async ({ input }) => {
        revoked.push(input.tokens);
      }),
    },
    actions: { persistTokens: (_, params) => void persisted.push(params.tokens) },
  });
  const actor = createActor(machine);
  actor.start();
  return { actor, persisted, revoked };
}

const totpStep: PasswordStep = { next: 'TOTP_REQUIRED', challenge: 'ch', qrSvg: null, secret: null };

describe('operator session machine', () => {
  it('restores stored tokens and loads the operator', async () => {
    const { actor } = start({ stored: tokens });
    const s = await waitFor(actor, (x) => x.matches('loggedIn'));
    expect(s.context.operator?.email).toBe('op@x.test');
  });

  it('goes to the login when nothing is stored, and when the stored session is refused', async () => {
    expect((await waitFor(start({}).actor, (x) => x.matches('loggedOut'))).context.logoutReason).toBeNull();
    const refused = start({
      stored: tokens,
      load: () => {
        throw new Error('UNAUTHENTICATED');
      },
    });
    const s = await waitFor(refused.actor, (x) => x.matches('loggedOut'));
    expect(s.context.logoutReason).toBe('expired');
    expect(refused.persisted).toEqual([null]);
  });

  it('keeps a wrong password on the credentials step with its code', async () => {
    const { actor } = start({});
    await waitFor(actor, (x) => x.matches({ loggedOut: 'credentials' }));
    actor.send({ type: 'login.submit', email: ' op@x.test ', password: 'x' });
    const s = await waitFor(
      actor,
      (x) => x.matches({ loggedOut: 'credentials' }) && x.context.error !== null,
    );
    expect(s.context.error).toBe('INVALID_CREDENTIALS');
    expect(s.context.email).toBe('op@x.test');
  });

  it('logs in with password and code, stores the tokens, and a wrong code stays on the code step', async () => {
    let codes = 0;
    const { actor, persisted } = start({
      password: () => totpStep,
      code: ({ challenge, code }) => {
        codes++;
        if (challenge !== 'ch' || code !== '123456') throw new Error('SECOND_FACTOR_INVALID');
        return { tokens, recoveryCodes: null };
      },
    });
    await waitFor(actor, (x) => x.matches({ loggedOut: 'credentials' }));
    actor.send({ type: 'login.submit', email: 'op@x.test', password: 'pw' });
    await waitFor(actor, (x) => x.matches({ loggedOut: 'secondFactor' }));
    actor.send({ type: 'code.submit', code: '000000' });
    const wrong = await waitFor(actor, (x) => x.matches({ loggedOut: 'secondFactor' }) && codes === 1);
    expect(wrong.context.error).toBe('SECOND_FACTOR_INVALID');
    actor.send({ type: 'code.submit', code: ' 123456 ' });
    await waitFor(actor, (x) => x.matches('loggedIn'));
    expect(persisted).toEqual([tokens]);
  });

  it('sends an expired challenge back to the password', async () => {
    const { actor } = start({
      password: () => totpStep,
      code: () => {
        throw new Error('CHALLENGE_EXPIRED');
      },
    });
    await waitFor(actor, (x) => x.matches({ loggedOut: 'credentials' }));
    actor.send({ type: 'login.submit', email: 'op@x.test', password: 'pw' });
    await waitFor(actor, (x) => x.matches({ loggedOut: 'secondFactor' }));
    actor.send({ type: 'code.submit', code: '123456' });
    const s = await waitFor(
      actor,
      (x) => x.matches({ loggedOut: 'credentials' }) && x.context.error !== null,
    );
    expect(s.context.error).toBe('CHALLENGE_EXPIRED');
    expect(s.context.challenge).toBeNull();
  });

  it('shows the recovery codes of a first login until they are confirmed saved', async () => {
    const { actor } = start({
      password: () => ({ next: 'TOTP_SETUP_REQUIRED', challenge: 'ch', qrSvg: '<svg/>', secret: 'ABC' }),
      code: () => ({ tokens, recoveryCodes: ['a', 'b'] }),
    });
    await waitFor(actor, (x) => x.matches({ loggedOut: 'credentials' }));
    actor.send({ type: 'login.submit', email: 'op@x.test', password: 'pw' });
    const setupStep = await waitFor(actor, (x) => x.matches({ loggedOut: 'secondFactor' }));
    expect(setupStep.context.setup).toEqual({ qrSvg: '<svg/>', secret: 'ABC' });
    actor.send({ type: 'code.submit', code: '123456' });
    const shown = await waitFor(actor, (x) => x.matches({ loggedOut: 'recoveryCodes' }));
    expect(shown.context.recoveryCodes).toEqual(['a', 'b']);
    actor.send({ type: 'codes.saved' });
    const s = await waitFor(actor, (x) => x.matches('loggedIn'));
    expect(s.context.recoveryCodes).toBeNull();
  });

  it('logs out by revoking the refresh token and forgetting the tokens', async () => {
    const { actor, persisted, revoked } = start({ stored: tokens });
    await waitFor(actor, (x) => x.matches('loggedIn'));
    actor.send({ type: 'session.logout' });
    const s = await waitFor(actor, (x) => x.matches('loggedOut'));
    expect(revoked).toEqual([tokens]);
    expect(persisted.at(-1)).toBeNull();
    expect(s.context).toMatchObject({ tokens: null, operator: null, logoutReason: 'user' });
  });

  it('ends the session when the backend refuses it', async () => {
    const { actor } = start({ stored: tokens });
    await waitFor(actor, (x) => x.matches('loggedIn'));
    actor.send({ type: 'session.unauthorized' });
    const s = await waitFor(actor, (x) => x.matches('loggedOut'));
    expect(s.context.logoutReason).toBe('expired');
  });
});

/**
 * The operator console's session actor with its real effects (storage, the admin backend), and the one
 * authorized request function of the console's islands. Tokens live in localStorage under keys of their own,
 * as the tenant app keeps its own; an expired access token is refreshed once before a request, and a refused
 * refresh ends the session.
 */
import { type Actor, createActor, fromPromise, type SnapshotFrom, waitFor } from 'xstate';
import { serverErrorCode } from '../../lib/errors.ts';
import { type OperatorProfile, operatorSessionMachine } from '../../machines/operatorSession.machine.ts';
import type { BackendTokens } from '../../machines/session.machine.ts';
import {
  OperatorLoginDocument,
  OperatorLogoutDocument,
  OperatorMeDocument,
  OperatorRefreshDocument,
  OperatorSecondFactorDocument,
} from '../gql/admin.ts';
import { GraphQLResponseError, requestWithToken, type TypedDocument, type Variables } from '../graphql.ts';
import { queryClient } from '../queryClient.ts';
import { browserStorage, readAdminTokens, tokensFromAnswer, writeAdminTokens } from '../storage.ts';

export type OperatorSessionSnapshot = SnapshotFrom<typeof operatorSessionMachine>;
export type OperatorSessionActor = Actor<typeof operatorSessionMachine>;

/** The backend's extensions.code of a failed request (SECOND_FACTOR_INVALID, FORBIDDEN, …), or a client code. */
function adminErrorCode(err: unknown): string {
  if (err instanceof GraphQLResponseError) {
    const first = err.response.errors[0] as { extensions?: { code?: unknown } } | undefined;
    const code = first?.extensions?.code;
    if (typeof code === 'string') return code;
    if (err.response.status >= 500) return 'INTERNAL_SERVER_ERROR';
  }
  return serverErrorCode(err) === 'network' ? 'NETWORK' : 'UNKNOWN';
}

/** An error whose message is the backend's code, which the machine keeps. */
const coded = (err: unknown) =>
  Object.assign(new Error(adminErrorCode(err)), {
    /** The first error's extensions (e.g. an upload's `problems`), for the page that shows them. */
    extensions:
      err instanceof GraphQLResponseError
        ? ((err.response.errors[0] as { extensions?: Record<string, unknown> } | undefined)?.extensions ?? {})
        : {},
  });

async function codedRequest<T, V extends Variables>(
  document: TypedDocument<T, V>,
  variables: V,
  token: string | null,
): Promise<T> {
  try {
    return await requestWithToken('admin', document, variables, token);
  } catch (err) {
    throw coded(err);
  }
}

const liveMachine = operatorSessionMachine.provide({
  actors: {
    restore: fromPromise(async () => readAdminTokens(browserStorage(), Date.now())),
    loadOperator: fromPromise(async (): Promise<OperatorProfile> => {
      const { operatorMe } = await adminRequest(OperatorMeDocument, {});
      return operatorMe;
    }),
    checkPassword: fromPromise(async ({ input }) => {
      const data = await codedRequest(OperatorLoginDocument, input, null);
      return data.operatorLogin;
    }),
    checkCode: fromPromise(async ({ input }) => {
      const data = await codedRequest(OperatorSecondFactorDocument, input, null);
      const tokens = tokensFromAnswer(data.operatorSecondFactor, Date.now());
      if (!tokens) throw new Error('UNKNOWN');
      return { tokens, recoveryCodes: data.operatorSecondFactor.recoveryCodes };
    }),
    revoke: fromPromise(async ({ input }) => {
      const refreshToken = input.tokens?.refreshToken;
      if (refreshToken) await codedRequest(OperatorLogoutDocument, { refreshToken }, null).catch(() => null);
    }),
  },
  actions: {
    persistTokens: (_, params) => writeAdminTokens(browserStorage(), params.tokens),
    clearCache: () => queryClient.clear(),
  },
});

let actor: OperatorSessionActor | null = null;

/** The started session actor of the console (browser only); islands share it as a module singleton. */
export function getOperatorSession(): OperatorSessionActor {
  if (typeof window === 'undefined') throw new Error('The operator session exists only in the browser');
  if (!actor) {
    actor = createActor(liveMachine);
    actor.start();
  }
  return actor;
}

let refreshing: Promise<BackendTokens> | null = null;

/** New tokens from the refresh token; one refresh at a time however many requests wait for it. */
function refreshTokens(tokens: BackendTokens): Promise<BackendTokens> {
  const refreshToken = tokens.refreshToken;
  if (!refreshToken) return Promise.reject(new Error('UNAUTHENTICATED'));
  refreshing ??= codedRequest(OperatorRefreshDocument, { refreshToken }, null)
    .then((data) => {
      const next = tokensFromAnswer(data.refreshToken, Date.now());
      if (!next) throw new Error('UNAUTHENTICATED');
      getOperatorSession().send({ type: 'tokens.refreshed', tokens: next });
      return next;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** A valid access token: the stored one, or a refreshed one when it has expired (or `force`). */
async function accessToken(force: boolean): Promise<string> {
  const session = getOperatorSession();
  const snapshot = await waitFor(session, (s) => !s.matches('initialising'));
  const tokens = snapshot.context.tokens;
  if (!tokens) throw new Error('UNAUTHENTICATED');
  const access = tokens.access;
  if (!force && access && access.expiresAt - 5_000 > Date.now()) return access.token;
  const next = await refreshTokens(tokens);
  if (!next.access) throw new Error('UNAUTHENTICATED');
  return next.access.token;
}

const SESSION_ENDED = new Set(['UNAUTHENTICATED', 'TOKEN_EXPIRED', 'TOKEN_REVOKED']);

/**
 * A request to the admin backend as the signed-in operator. An expired token is refreshed and the request
 * tried once more; a session the backend refuses ends (the shell then shows the login). Failures reject with
 * an Error whose message is the backend's code.
 */
export async function adminRequest<T, V extends Variables>(
  document: TypedDocument<T, V>,
  variables: V,
): Promise<T> {
  const attempt = async (force: boolean) => codedRequest(document, variables, await accessToken(force));
  try {
    return await attempt(false);
  } catch (err) {
    let failure = err instanceof Error ? err : new Error('UNKNOWN');
    if (failure.message === 'TOKEN_EXPIRED') {
      try {
        return await attempt(true);
      } catch (again) {
        failure = again instanceof Error ? again : new Error('UNKNOWN');
      }
    }
    if (SESSION_ENDED.has(failure.message)) getOperatorSession().send({ type: 'session.unauthorized' });
    throw failure;
  }
}

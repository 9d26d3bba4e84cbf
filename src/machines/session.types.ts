/**
 * The session machine's types and its pure rules (session.machine.ts): tokens, the user and tenancies, the
 * impersonation deadline, refresh timing and the choice of tenancy.
 */
import type { UserQueryQuery } from '../client/gql/account.ts';
import type { ServerErrorCode } from '../lib/errors.ts';

/** The two backends, each with its own tokens (SPEC §3). */
export type Backend = 'account' | 'tenant';

/** An access token with its expiry in ms since the epoch (read from the JWT's exp). */
export type AccessToken = { token: string; expiresAt: number };

/** One backend's tokens; an expired access token is stored as null. */
export type BackendTokens = {
  access: AccessToken | null;
  refreshToken: string | null;
  /** Refresh token expiry in ms, when the backend tells it. */
  refreshExpiresAt: number | null;
};

export type SessionTokens = Record<Backend, BackendTokens>;

/** The signed-in user, full shape of SPEC §3, as the account backend's UserQuery answers it. */
type SessionUser = NonNullable<UserQueryQuery['me']>;

/** A tenancy of the signed-in user (SPEC §3), as UserQuery answers it. */
export type Tenancy = UserQueryQuery['allTenanciesForCurrentUser'][number];

/** An impersonation session in this tab (SPEC §4): whom it shows, and when it ends in ms since the epoch. */
export type Impersonation = { email: string; endsAt: number };

/**
 * What restoring from storage yields: tokens with expired ones already cleared, the stored tenancy, and the
 * impersonation this tab holds (absent or null for an ordinary session).
 */
export type RestoredSession = {
  tokens: SessionTokens | null;
  storedTenancyId: string | null;
  impersonation?: Impersonation | null;
};

export type UserAndTenancies = { user: SessionUser; tenancies: Tenancy[] };

export type SessionContext = {
  tokens: SessionTokens | null;
  user: SessionUser | null;
  tenancies: Tenancy[];
  selectedTenancyId: string | null;
  /** Tenancy id from the URL when the app started; it wins over the stored one. */
  urlTenancyId: string | null;
  storedTenancyId: string | null;
  /** Why the last login failed; its message is `errors.<code>` in the domain namespace. */
  loginError: ServerErrorCode | null;
  /** The impersonation this tab's session is, or null for an ordinary session. */
  impersonation: Impersonation | null;
  /** Why the last session ended: the user asked, the server refused it, or the impersonation's hour was up. */
  logoutReason: LogoutReason | null;
};

/** Why a session ended. */
export type LogoutReason = 'user' | 'expired' | 'impersonationEnded';

export type SessionEvent =
  | { type: 'session.login'; email: string; password: string }
  | { type: 'session.logout' }
  /** Sent by the GraphQL client when a backend answers "login required". */
  | { type: 'session.unauthorized' }
  /** Sent by the GraphQL client when it finds an access token expired before a request. */
  | { type: 'token.expired'; backend: Backend }
  | { type: 'tenancy.select'; tenancyId: string };

export type SessionInput = { urlTenancyId?: string | null };

/** How long before its expiry an access token is refreshed (SPEC §9). */
const REFRESH_MARGIN_MS = 5_000;

/** SPEC §9: an impersonation session lasts 60 minutes from its start. */
export const IMPERSONATION_SESSION_MS = 60 * 60 * 1000;

export const BACKENDS: readonly Backend[] = ['account', 'tenant'];

/** Ms from `now` until the access token should be refreshed; 0 when due or unknown. */
export function msUntilRefresh(access: AccessToken | null | undefined, now: number): number {
  if (!access) return 0;
  return Math.max(0, access.expiresAt - REFRESH_MARGIN_MS - now);
}

/**
 * Ms from `now` until the impersonation ends: 0 when past, and never more than a whole session (a stored end
 * further off than that is not believed; it also keeps the timer within setTimeout's range).
 */
export function msUntilImpersonationEnds(impersonation: Impersonation | null, now: number): number {
  if (!impersonation) return 0;
  return Math.min(IMPERSONATION_SESSION_MS, Math.max(0, impersonation.endsAt - now));
}

/** The tenancy to select: the URL's, else the stored one, else the first (SPEC §4). */
export function chooseTenancy(
  tenancies: Tenancy[],
  urlId: string | null,
  storedId: string | null,
): string | null {
  for (const id of [urlId, storedId]) {
    if (id && tenancies.some((t) => t.id === id)) return id;
  }
  return tenancies[0]?.id ?? null;
}

export const needsRefresh = (tokens: SessionTokens | null, backend: Backend) =>
  !!tokens && !tokens[backend].access && !!tokens[backend].refreshToken;

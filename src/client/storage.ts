/** The storage keys of SPEC §3 and total parsers for what is read back; nothing here throws. */
import type {
  AccessToken,
  Backend,
  BackendTokens,
  Impersonation,
  SessionTokens,
} from '../machines/session.types.ts';

/** Every localStorage key the app uses. */
export const STORAGE_KEYS = {
  accountToken: 'token',
  accountRefreshToken: 'refreshToken',
  accountRefreshExpiresIn: 'refreshExpiresIn',
  tenantToken: 'tenantToken',
  tenantRefreshToken: 'tenantRefreshToken',
  selectedTenancy: 'selectedTenancy',
  language: 'language',
  onboarded: 'onboarded',
  dataPolicyAccepted: 'dataPolicyAccepted',
  unusedActivationCode: 'unusedActivationCode',
  adminToken: 'adminToken',
  adminRefreshToken: 'adminRefreshToken',
  adminRefreshExpiresIn: 'adminRefreshExpiresIn',
} as const;

/** The part of the Web Storage API the app needs; tests pass a Map-backed one. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const NO_STORAGE: KeyValueStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };

/** Marks a tab as an impersonation session (SPEC §3: impersonation uses session storage). */
export const IMPERSONATION_KEY = 'impersonation';

/**
 * The browser's localStorage, or this tab's sessionStorage while it holds an impersonation session; one
 * that keeps nothing where there is none or the browser refuses it.
 */
export function browserStorage(): KeyValueStorage {
  try {
    if (window.sessionStorage?.getItem(IMPERSONATION_KEY)) return window.sessionStorage;
  } catch {
    // Session storage refused: no impersonation in this tab.
  }
  try {
    // Reading window.localStorage throws when the user blocks site data.
    return window.localStorage;
  } catch {
    return NO_STORAGE;
  }
}

/** This tab's sessionStorage, or one that keeps nothing where the browser refuses it. */
function tabStorage(): KeyValueStorage {
  try {
    return window.sessionStorage ?? NO_STORAGE;
  } catch {
    return NO_STORAGE;
  }
}

/** The impersonation this tab holds: whom it shows and when it ends; null when none or garbled. */
export function readImpersonation(storage: KeyValueStorage = tabStorage()): Impersonation | null {
  try {
    const parsed = JSON.parse(storage.getItem(IMPERSONATION_KEY) ?? 'null') as Partial<Impersonation> | null;
    return parsed && typeof parsed.email === 'string' && Number.isFinite(parsed.endsAt)
      ? { email: parsed.email, endsAt: parsed.endsAt as number }
      : null;
  } catch {
    return null;
  }
}

/** Makes this tab an impersonation session; its tokens then go to sessionStorage (browserStorage). */
export function writeImpersonation(
  impersonation: Impersonation,
  storage: KeyValueStorage = tabStorage(),
): void {
  safeSet(storage, IMPERSONATION_KEY, JSON.stringify(impersonation));
}

/** Ends this tab's impersonation: the tab goes back to the browser's localStorage. */
export function forgetImpersonation(storage: KeyValueStorage = tabStorage()): void {
  safeRemove(storage, IMPERSONATION_KEY);
}

type TokenKeys = { access: string; refresh: string; refreshExpires: string | null };

const KEYS: Record<Backend, TokenKeys> = {
  account: {
    access: STORAGE_KEYS.accountToken,
    refresh: STORAGE_KEYS.accountRefreshToken,
    refreshExpires: STORAGE_KEYS.accountRefreshExpiresIn,
  },
  tenant: {
    access: STORAGE_KEYS.tenantToken,
    refresh: STORAGE_KEYS.tenantRefreshToken,
    refreshExpires: null,
  },
};

// The browser only reads exp to schedule a refresh; the backends verify signatures. A JWT library for
// that would ship bytes to every page, so this reads the base64url JSON payload directly.
function jwtPayload(token: string): unknown {
  const parts = token.split('.');
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]+$/.test(parts[1]!)) return null;
  const base64 = parts[1]!.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (c) =>
    c.charCodeAt(0),
  );
  return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
}

/** Reads a JWT's exp as ms since the epoch; null for anything that is not a JWT with a numeric exp. */
export function accessTokenExpiry(token: unknown): number | null {
  if (typeof token !== 'string' || token.length === 0) return null;
  try {
    const payload = jwtPayload(token);
    const exp = payload && typeof payload === 'object' ? (payload as { exp?: unknown }).exp : undefined;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** An access token with its expiry, or null when it is malformed or expired at `now`. */
export function parseAccessToken(token: unknown, now: number): AccessToken | null {
  const expiresAt = accessTokenExpiry(token);
  if (expiresAt === null || expiresAt <= now) return null;
  return { token: token as string, expiresAt };
}

/** What login and refresh mutations answer; refreshExpiresIn is in seconds since the epoch, when given. */
export type TokenAnswer = { token: string; refreshToken: string; refreshExpiresIn?: number };

/** A backend's tokens from a login or refresh answer; null when it holds no valid access token. */
export function tokensFromAnswer(answer: TokenAnswer | null | undefined, now: number): BackendTokens | null {
  const access = parseAccessToken(answer?.token, now);
  if (!answer || !access) return null;
  const { refreshExpiresIn } = answer;
  return {
    access,
    refreshToken: answer.refreshToken,
    refreshExpiresAt: refreshExpiresIn === undefined ? null : refreshExpiresIn * 1000,
  };
}

function safeGet(storage: KeyValueStorage, key: string): string | null {
  try {
    const value = storage.getItem(key);
    return typeof value === 'string' && value.length > 0 ? value : null;
  } catch {
    return null;
  }
}

function safeRemove(storage: KeyValueStorage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // Storage can be unavailable (private mode, quota); then there is nothing to clear.
  }
}

function safeSet(storage: KeyValueStorage, key: string, value: string | null): void {
  if (value === null) {
    safeRemove(storage, key);
    return;
  }
  try {
    storage.setItem(key, value);
  } catch {
    // A full or blocked storage only costs the session on the next reload.
  }
}

/** The operator console's tokens: kept like a tenant backend's, under keys of their own. */
const ADMIN_KEYS: TokenKeys = {
  access: STORAGE_KEYS.adminToken,
  refresh: STORAGE_KEYS.adminRefreshToken,
  refreshExpires: STORAGE_KEYS.adminRefreshExpiresIn,
};

function readBackend(storage: KeyValueStorage, keys: TokenKeys, now: number): BackendTokens {
  const rawAccess = safeGet(storage, keys.access);
  const access = parseAccessToken(rawAccess, now);
  // Expired (or unreadable) tokens are cleared on read and treated as absent (SPEC §3, §4).
  if (rawAccess && !access) safeRemove(storage, keys.access);
  let refreshToken = safeGet(storage, keys.refresh);
  let refreshExpiresAt: number | null = null;
  if (keys.refreshExpires) {
    const raw = safeGet(storage, keys.refreshExpires);
    const seconds = raw === null ? Number.NaN : Number(raw);
    refreshExpiresAt = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
    if (refreshToken && refreshExpiresAt !== null && refreshExpiresAt <= now) {
      safeRemove(storage, keys.refresh);
      safeRemove(storage, keys.refreshExpires);
      refreshToken = null;
      refreshExpiresAt = null;
    }
  }
  return { access, refreshToken, refreshExpiresAt: refreshToken ? refreshExpiresAt : null };
}

/** Reads both backends' tokens, clearing expired ones; null when nothing usable is stored. */
export function readTokens(storage: KeyValueStorage, now: number): SessionTokens | null {
  const tokens = {
    account: readBackend(storage, KEYS.account, now),
    tenant: readBackend(storage, KEYS.tenant, now),
  };
  const empty = (b: BackendTokens) => !b.access && !b.refreshToken;
  return empty(tokens.account) && empty(tokens.tenant) ? null : tokens;
}

function writeBackend(storage: KeyValueStorage, keys: TokenKeys, t: BackendTokens | null | undefined): void {
  safeSet(storage, keys.access, t?.access?.token ?? null);
  safeSet(storage, keys.refresh, t?.refreshToken ?? null);
  if (keys.refreshExpires) {
    const exp = t?.refreshExpiresAt;
    safeSet(storage, keys.refreshExpires, exp ? String(Math.floor(exp / 1000)) : null);
  }
}

/** Writes both backends' tokens; absent ones are removed. */
export function writeTokens(storage: KeyValueStorage, tokens: SessionTokens | null): void {
  for (const backend of ['account', 'tenant'] as const)
    writeBackend(storage, KEYS[backend], tokens?.[backend]);
}

/** The operator console's tokens, expired ones cleared; null when nothing usable is stored. */
export function readAdminTokens(storage: KeyValueStorage, now: number): BackendTokens | null {
  const tokens = readBackend(storage, ADMIN_KEYS, now);
  return tokens.access || tokens.refreshToken ? tokens : null;
}

/** Writes (or with null, removes) the operator console's tokens. */
export function writeAdminTokens(storage: KeyValueStorage, tokens: BackendTokens | null): void {
  writeBackend(storage, ADMIN_KEYS, tokens);
}

/** Reads the selected tenancy id; null when absent or not a plausible id. */
export function readSelectedTenancy(storage: KeyValueStorage): string | null {
  const value = safeGet(storage, STORAGE_KEYS.selectedTenancy);
  return value && /^[\w-]{1,64}$/.test(value) ? value : null;
}

/** Saves (or with null, forgets) the selected tenancy id. */
export function writeSelectedTenancy(storage: KeyValueStorage, tenancyId: string | null): void {
  safeSet(storage, STORAGE_KEYS.selectedTenancy, tenancyId);
}

/** Forgets the session: tokens and selected tenancy. Language and consent choices stay. */
export function clearSessionStorage(storage: KeyValueStorage): void {
  writeTokens(storage, null);
  writeSelectedTenancy(storage, null);
}

/** Reads a stored string by key with a safe default, for the client's other preferences. */
export function readString(storage: KeyValueStorage, key: string): string | null {
  return safeGet(storage, key);
}

/** Writes a stored string by key, ignoring storage failures. */
export function writeString(storage: KeyValueStorage, key: string, value: string | null): void {
  safeSet(storage, key, value);
}

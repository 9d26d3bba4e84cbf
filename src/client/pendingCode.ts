/**
 * SPEC §3 activation codes in storage: `?activationCode=` on any page is kept as the unvalidated code;
 * once validated it becomes the unused code, which is applied (add tenancy) after login or signup and deleted.
 */
import { normalizeActivationCode, validateActivationCodeFormat } from '../lib/activationCode.ts';
import { browserStorage, readString, STORAGE_KEYS, writeString } from './storage.ts';

/** The storage key of the code read from the URL, not yet validated. */
export const UNVALIDATED_CODE_KEY = 'unvalidatedActivationCode';

/** Reads `?activationCode=` from a URL and keeps it (well-formed ones only) as the unvalidated code. */
export function captureActivationCode(url: URL): string | null {
  const raw = url.searchParams.get('activationCode');
  if (!raw) return null;
  const checked = validateActivationCodeFormat(raw);
  if (!checked.ok) return null;
  writeString(browserStorage(), UNVALIDATED_CODE_KEY, checked.code);
  return checked.code;
}

/** The code waiting to be applied: the unused (validated) one, else the unvalidated one. */
export function pendingActivationCode(): string | null {
  const storage = browserStorage();
  for (const key of [STORAGE_KEYS.unusedActivationCode, UNVALIDATED_CODE_KEY]) {
    const value = readString(storage, key);
    if (value && validateActivationCodeFormat(value).ok) return normalizeActivationCode(value);
  }
  return null;
}

/** Keeps a validated code as the unused one. */
export function storeValidatedCode(code: string): void {
  const storage = browserStorage();
  writeString(storage, STORAGE_KEYS.unusedActivationCode, normalizeActivationCode(code));
  writeString(storage, UNVALIDATED_CODE_KEY, null);
}

/** Forgets both codes (applied, or refused by the server). */
export function clearPendingCodes(): void {
  const storage = browserStorage();
  writeString(storage, STORAGE_KEYS.unusedActivationCode, null);
  writeString(storage, UNVALIDATED_CODE_KEY, null);
}

/**
 * SPEC §2 guard on authenticated pages: with no user, go to signup if an activation code is pending
 * (one in the current URL counts), otherwise to login.
 */
export function loggedOutPath(url: URL): '/signup' | '/login' {
  captureActivationCode(url);
  return pendingActivationCode() ? '/signup' : '/login';
}

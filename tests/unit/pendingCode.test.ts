/** SPEC §3 stored activation codes: the unvalidated one from the URL, the unused validated one. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  captureActivationCode,
  clearPendingCodes,
  loggedOutPath,
  pendingActivationCode,
  storeValidatedCode,
  UNVALIDATED_CODE_KEY,
} from '../../src/client/pendingCode.ts';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    data,
  };
}

let local: ReturnType<typeof memoryStorage>;
beforeEach(() => {
  local = memoryStorage();
  vi.stubGlobal('window', { localStorage: local, sessionStorage: memoryStorage() });
});
afterEach(() => vi.unstubAllGlobals());

describe('pending activation codes', () => {
  it('keeps a well-formed ?activationCode= as the unvalidated code, normalised', () => {
    expect(captureActivationCode(new URL('https://x.test/signup?activationCode=abcd-efgh-ijkl'))).toBe(
      'ABCDEFGHIJKL',
    );
    expect(local.data.get(UNVALIDATED_CODE_KEY)).toBe('ABCDEFGHIJKL');
    expect(pendingActivationCode()).toBe('ABCDEFGHIJKL');
  });
  it('ignores a malformed or missing code', () => {
    expect(captureActivationCode(new URL('https://x.test/?activationCode=abc123'))).toBeNull();
    expect(captureActivationCode(new URL('https://x.test/'))).toBeNull();
    expect(pendingActivationCode()).toBeNull();
  });
  it('prefers the validated unused code, and forgets both once applied', () => {
    captureActivationCode(new URL('https://x.test/?activationCode=AAAAAAAAAAAA'));
    storeValidatedCode('bbbb-bbbb-bbbb');
    expect(local.data.get('unusedActivationCode')).toBe('BBBBBBBBBBBB');
    expect(local.data.has(UNVALIDATED_CODE_KEY)).toBe(false);
    expect(pendingActivationCode()).toBe('BBBBBBBBBBBB');
    clearPendingCodes();
    expect(pendingActivationCode()).toBeNull();
  });
  it('treats a tampered stored value as no code', () => {
    local.setItem('unusedActivationCode', '<script>');
    expect(pendingActivationCode()).toBeNull();
  });
  it('sends a logged-out user to signup when a code is pending (stored or in the URL), else to login', () => {
    expect(loggedOutPath(new URL('https://x.test/t/'))).toBe('/login');
    expect(loggedOutPath(new URL('https://x.test/t/?activationCode=ABCDEFGHIJKL'))).toBe('/signup');
    // Kept: the next guard decision needs no URL.
    expect(loggedOutPath(new URL('https://x.test/no-tenancies'))).toBe('/signup');
    clearPendingCodes();
    storeValidatedCode('MNOPQRSTUVWX');
    expect(loggedOutPath(new URL('https://x.test/t/'))).toBe('/signup');
    clearPendingCodes();
    expect(loggedOutPath(new URL('https://x.test/t/?activationCode=bad'))).toBe('/login');
  });
});

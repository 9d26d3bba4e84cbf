import { SignJWT, UnsecuredJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  accessTokenExpiry,
  browserStorage,
  clearSessionStorage,
  forgetImpersonation,
  IMPERSONATION_KEY,
  type KeyValueStorage,
  parseAccessToken,
  readImpersonation,
  readSelectedTenancy,
  readTokens,
  STORAGE_KEYS,
  tokensFromAnswer,
  writeImpersonation,
  writeSelectedTenancy,
  writeTokens,
} from '../../src/client/storage.ts';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const secret = new TextEncoder().encode('test-secret-that-is-long-enough-32b');

/** A signed JWT expiring `secondsFromNow` after NOW. */
function jwt(secondsFromNow: number): Promise<string> {
  return new SignJWT({ sub: 'u1' })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(Math.floor(NOW / 1000) + secondsFromNow)
    .sign(secret);
}

function memoryStorage(
  initial: Record<string, string> = {},
): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

describe('accessTokenExpiry / parseAccessToken', () => {
  it('reads exp in ms from a JWT', async () => {
    expect(accessTokenExpiry(await jwt(300))).toBe(NOW + 300_000);
  });

  it('reads a payload with non-ASCII claims and base64url characters', async () => {
    const token = await new SignJWT({ sub: 'Ærø ~~~ ???', name: 'Søren Ødegård' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(NOW / 1000) + 5)
      .sign(secret);
    expect(accessTokenExpiry(token)).toBe(NOW + 5_000);
  });

  it('is null for garbage, non-strings, and a JWT without exp', () => {
    const noExp = new UnsecuredJWT({ sub: 'x' }).encode();
    const stringExp = `e30.${btoa(JSON.stringify({ exp: '9999999999' })).replace(/=+$/, '')}.`;
    const arrayPayload = `e30.${btoa('[1]')}.x`;
    for (const bad of [
      '',
      'abc',
      'a.b.c',
      'a.b+c.d',
      42,
      null,
      undefined,
      {},
      noExp,
      stringExp,
      arrayPayload,
    ])
      expect(accessTokenExpiry(bad)).toBeNull();
  });

  it('drops a token that has expired, keeps one that has not', async () => {
    expect(parseAccessToken(await jwt(-1), NOW)).toBeNull();
    expect(parseAccessToken(await jwt(0), NOW)).toBeNull();
    const fresh = await jwt(60);
    expect(parseAccessToken(fresh, NOW)).toEqual({ token: fresh, expiresAt: NOW + 60_000 });
  });
});

describe('tokensFromAnswer', () => {
  it('turns a login or refresh answer into tokens, the refresh expiry from epoch seconds to ms', async () => {
    const token = await jwt(300);
    const refreshExpiresIn = Math.floor(NOW / 1000) + 3_600;
    expect(tokensFromAnswer({ token, refreshToken: 'r', refreshExpiresIn }, NOW)).toEqual({
      access: { token, expiresAt: NOW + 300_000 },
      refreshToken: 'r',
      refreshExpiresAt: NOW + 3_600_000,
    });
    expect(tokensFromAnswer({ token, refreshToken: 'r' }, NOW)?.refreshExpiresAt).toBeNull();
  });

  it('is null without an answer or without a valid access token in it', async () => {
    expect(tokensFromAnswer(null, NOW)).toBeNull();
    expect(tokensFromAnswer({ token: 'not a jwt', refreshToken: 'r' }, NOW)).toBeNull();
    expect(tokensFromAnswer({ token: await jwt(-1), refreshToken: 'r' }, NOW)).toBeNull();
  });
});

describe('readTokens', () => {
  it('is null for empty storage', () => {
    expect(readTokens(memoryStorage(), NOW)).toBeNull();
  });

  it('reads both backends with their expiries', async () => {
    const account = await jwt(300);
    const tenant = await jwt(200);
    const storage = memoryStorage({
      [STORAGE_KEYS.accountToken]: account,
      [STORAGE_KEYS.accountRefreshToken]: 'r-account',
      [STORAGE_KEYS.accountRefreshExpiresIn]: String(Math.floor(NOW / 1000) + 86_400),
      [STORAGE_KEYS.tenantToken]: tenant,
      [STORAGE_KEYS.tenantRefreshToken]: 'r-tenant',
    });
    expect(readTokens(storage, NOW)).toEqual({
      account: {
        access: { token: account, expiresAt: NOW + 300_000 },
        refreshToken: 'r-account',
        refreshExpiresAt: NOW + 86_400_000,
      },
      tenant: {
        access: { token: tenant, expiresAt: NOW + 200_000 },
        refreshToken: 'r-tenant',
        refreshExpiresAt: null,
      },
    });
  });

  it('clears an expired access token on read but keeps its valid refresh token', async () => {
    const storage = memoryStorage({
      [STORAGE_KEYS.accountToken]: await jwt(-10),
      [STORAGE_KEYS.accountRefreshToken]: 'r-account',
      [STORAGE_KEYS.tenantToken]: 'not a jwt',
      [STORAGE_KEYS.tenantRefreshToken]: 'r-tenant',
    });
    const tokens = readTokens(storage, NOW);
    expect(tokens?.account).toEqual({ access: null, refreshToken: 'r-account', refreshExpiresAt: null });
    expect(tokens?.tenant.access).toBeNull();
    expect(storage.data.has(STORAGE_KEYS.accountToken)).toBe(false);
    expect(storage.data.has(STORAGE_KEYS.tenantToken)).toBe(false);
    expect(storage.data.get(STORAGE_KEYS.accountRefreshToken)).toBe('r-account');
  });

  it('clears an expired refresh token and its expiry', () => {
    const storage = memoryStorage({
      [STORAGE_KEYS.accountRefreshToken]: 'r-account',
      [STORAGE_KEYS.accountRefreshExpiresIn]: String(Math.floor(NOW / 1000) - 1),
    });
    expect(readTokens(storage, NOW)).toBeNull();
    expect(storage.data.size).toBe(0);
  });

  it('ignores a nonsense refresh expiry instead of failing', () => {
    const storage = memoryStorage({
      [STORAGE_KEYS.accountRefreshToken]: 'r-account',
      [STORAGE_KEYS.accountRefreshExpiresIn]: 'soon',
    });
    expect(readTokens(storage, NOW)?.account).toEqual({
      access: null,
      refreshToken: 'r-account',
      refreshExpiresAt: null,
    });
  });

  it('survives a storage that throws', () => {
    const broken: KeyValueStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(readTokens(broken, NOW)).toBeNull();
    expect(() => writeTokens(broken, null)).not.toThrow();
  });
});

describe('writeTokens, selected tenancy and clearing', () => {
  it('round-trips tokens and removes absent ones', async () => {
    const storage = memoryStorage({ [STORAGE_KEYS.language]: 'da' });
    const token = await jwt(300);
    const tokens = {
      account: {
        access: { token, expiresAt: NOW + 300_000 },
        refreshToken: 'ra',
        refreshExpiresAt: NOW + 3_600_000,
      },
      tenant: { access: null, refreshToken: 'rt', refreshExpiresAt: null },
    };
    writeTokens(storage, tokens);
    expect(readTokens(storage, NOW)).toEqual(tokens);
    writeSelectedTenancy(storage, '42');
    expect(readSelectedTenancy(storage)).toBe('42');
    clearSessionStorage(storage);
    expect([...storage.data.keys()]).toEqual([STORAGE_KEYS.language]);
  });

  it('reads a selected tenancy only when it looks like an id', () => {
    expect(readSelectedTenancy(memoryStorage({ [STORAGE_KEYS.selectedTenancy]: '<script>' }))).toBeNull();
    expect(readSelectedTenancy(memoryStorage({ [STORAGE_KEYS.selectedTenancy]: 'abc-12' }))).toBe('abc-12');
  });
});

describe('browserStorage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is the window localStorage where there is one', () => {
    const local = memoryStorage();
    vi.stubGlobal('window', { localStorage: local });
    expect(browserStorage()).toBe(local);
  });

  it('keeps nothing, and never throws, where the browser refuses storage or there is no window', () => {
    vi.stubGlobal('window', {
      get localStorage(): Storage {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    const refused = browserStorage();
    refused.setItem(STORAGE_KEYS.language, 'da');
    expect(refused.getItem(STORAGE_KEYS.language)).toBeNull();
    expect(() => writeTokens(refused, null)).not.toThrow();
    vi.unstubAllGlobals();
    expect(readTokens(browserStorage(), NOW)).toBeNull();
  });
});

describe('browserStorage during impersonation', () => {
  it("is the tab's sessionStorage while it holds an impersonation session", () => {
    const local = memoryStorage();
    const session = memoryStorage();
    vi.stubGlobal('window', { localStorage: local, sessionStorage: session });
    expect(browserStorage()).toBe(local);
    session.setItem(IMPERSONATION_KEY, '{"email":"a@b.c","endsAt":1}');
    expect(browserStorage()).toBe(session);
    vi.unstubAllGlobals();
  });

  it('reads the impersonation back, refuses a garbled one, and forgetting it returns the tab to localStorage', () => {
    const local = memoryStorage();
    const session = memoryStorage();
    vi.stubGlobal('window', { localStorage: local, sessionStorage: session });
    expect(readImpersonation()).toBeNull();
    writeImpersonation({ email: 'a@b.c', endsAt: 1_768_482_000_000 });
    expect(readImpersonation()).toEqual({ email: 'a@b.c', endsAt: 1_768_482_000_000 });
    expect(browserStorage()).toBe(session);
    for (const garbled of [
      '{"email":"a@b.c"}',
      '{"email":1,"endsAt":1}',
      '{"email":"a","endsAt":"1"}',
      'nope',
    ]) {
      session.setItem(IMPERSONATION_KEY, garbled);
      expect(readImpersonation()).toBeNull();
    }
    forgetImpersonation();
    expect(session.getItem(IMPERSONATION_KEY)).toBeNull();
    expect(browserStorage()).toBe(local);
    vi.unstubAllGlobals();
  });
});

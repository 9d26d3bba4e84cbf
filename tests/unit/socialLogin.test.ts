/** The social-login callback's checks in the browser: the state this tab stored, used once. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SOCIAL_LOGIN_KEY, takeSocialAnswer } from '../../src/islands/login/socialLogin.ts';

let session: Map<string, string>;
beforeEach(() => {
  session = new Map();
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => session.get(k) ?? null,
    setItem: (k: string, v: string) => void session.set(k, v),
    removeItem: (k: string) => void session.delete(k),
  });
});
afterEach(() => vi.unstubAllGlobals());

const started = () =>
  session.set(SOCIAL_LOGIN_KEY, JSON.stringify({ provider: 'google', state: 'S1', nonce: 'N1' }));

describe('takeSocialAnswer', () => {
  it('accepts the id_token with the stored state, once', () => {
    started();
    expect(takeSocialAnswer('#id_token=T&state=S1')).toEqual({
      ok: true,
      pending: { provider: 'google', state: 'S1', nonce: 'N1' },
      idToken: 'T',
    });
    expect(session.has(SOCIAL_LOGIN_KEY)).toBe(false);
    expect(takeSocialAnswer('#id_token=T&state=S1')).toMatchObject({ ok: false });
  });
  it('refuses another state, a missing token, a provider error, and an answer no login started', () => {
    started();
    expect(takeSocialAnswer('#id_token=T&state=S2')).toEqual({ ok: false, reason: 'state mismatch' });
    started();
    expect(takeSocialAnswer('#state=S1')).toEqual({ ok: false, reason: 'no id_token' });
    started();
    expect(takeSocialAnswer('#error=access_denied&state=S1')).toEqual({
      ok: false,
      reason: 'provider error: access_denied',
    });
    expect(takeSocialAnswer('#id_token=T&state=S1')).toEqual({
      ok: false,
      reason: 'no login was started in this tab',
    });
    session.set(SOCIAL_LOGIN_KEY, '{broken');
    expect(takeSocialAnswer('#id_token=T&state=S1')).toMatchObject({ ok: false });
  });
});

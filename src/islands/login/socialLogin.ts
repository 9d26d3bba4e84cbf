/**
 * Social login in the browser, OpenID Connect implicit flow without a provider SDK: a button sends the
 * browser to the provider's authorization endpoint with a fresh `state` and `nonce`, both kept in this tab's
 * sessionStorage; the provider sends it back to /login/social with an ID token (in the fragment, or by
 * form_post which the server turns into a fragment). The callback checks the state, and socialAuth checks the
 * token's signature, issuer, audience, expiry and nonce on the server.
 */

/** sessionStorage key of the login under way. */
export const SOCIAL_LOGIN_KEY = 'socialLogin';

/** What the tab keeps while the provider is asked. */
export interface PendingSocialLogin {
  provider: string;
  state: string;
  nonce: string;
}

/** 32 random bytes, base64url. */
function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

// Back from the provider via the back/forward cache: the buttons work again.
if (typeof window !== 'undefined') {
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-social-start]')) {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  });
}

/** Wires the page's social buttons (run on each page load). */
export function enhanceSocialButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-social-start]')) {
    if (button.dataset.ready) continue;
    button.dataset.ready = 'true';
    button.addEventListener('click', () => {
      const provider = button.dataset.provider ?? '';
      const url = new URL(button.dataset.socialStart ?? '');
      const pending: PendingSocialLogin = { provider, state: randomToken(), nonce: randomToken() };
      sessionStorage.setItem(SOCIAL_LOGIN_KEY, JSON.stringify(pending));
      url.searchParams.set('state', pending.state);
      url.searchParams.set('nonce', pending.nonce);
      button.disabled = true;
      button.setAttribute('aria-busy', 'true');
      window.location.assign(url);
    });
  }
}

/** The callback's answer, read once: the stored login is removed so a state cannot be used twice. */
export function takeSocialAnswer(
  hash: string,
): { ok: true; pending: PendingSocialLogin; idToken: string } | { ok: false; reason: string } {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const raw = sessionStorage.getItem(SOCIAL_LOGIN_KEY);
  sessionStorage.removeItem(SOCIAL_LOGIN_KEY);
  let pending: PendingSocialLogin | null = null;
  try {
    pending = raw ? (JSON.parse(raw) as PendingSocialLogin) : null;
  } catch {
    pending = null;
  }
  const error = params.get('error');
  if (error) return { ok: false, reason: `provider error: ${error}` };
  if (!pending?.state || !pending.nonce) return { ok: false, reason: 'no login was started in this tab' };
  if (params.get('state') !== pending.state) return { ok: false, reason: 'state mismatch' };
  const idToken = params.get('id_token');
  if (!idToken) return { ok: false, reason: 'no id_token' };
  return { ok: true, pending, idToken };
}

/**
 * Social login: verifies a provider's OpenID Connect ID token for real, against the provider's published
 * keys (jose's remote JWKS, cached): signature, iss, aud = our client id, exp, and the nonce the app sent.
 * A provider is off until its client id is configured.
 */
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { ServerConfig } from '../config.ts';

/** SPEC §3: the social providers. */
const SOCIAL_PROVIDERS = ['apple', 'google', 'facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

/**
 * How the browser gets an ID token from each provider (OpenID Connect implicit flow, `response_type` with
 * `id_token`): Google and Facebook return it in the redirect's fragment; Apple returns it by `form_post`
 * (Apple requires form_post whenever scopes are asked, and without the email scope the token has no email).
 */
type ResponseMode = 'fragment' | 'form_post';

const DEFAULTS: Record<
  SocialProvider,
  {
    issuer: string[];
    jwks: string;
    authorize: string;
    responseType: string;
    scope: string;
    mode: ResponseMode;
  }
> = {
  google: {
    issuer: ['https://accounts.google.com', 'accounts.google.com'],
    jwks: 'https://www.googleapis.com/oauth2/v3/certs',
    authorize: 'https://accounts.google.com/o/oauth2/v2/auth',
    responseType: 'id_token',
    scope: 'openid email',
    mode: 'fragment',
  },
  apple: {
    issuer: ['https://appleid.apple.com'],
    jwks: 'https://appleid.apple.com/auth/keys',
    authorize: 'https://appleid.apple.com/auth/authorize',
    // Apple's hybrid response; the code is not used (no client secret is kept), only the ID token.
    responseType: 'code id_token',
    scope: 'email',
    mode: 'form_post',
  },
  // Facebook's manual OpenID Connect flow (as in Limited Login) issues ID tokens with the openid scope.
  facebook: {
    issuer: ['https://www.facebook.com'],
    jwks: 'https://www.facebook.com/.well-known/oauth/openid/jwks/',
    authorize: 'https://www.facebook.com/dialog/oauth',
    responseType: 'id_token',
    scope: 'openid email',
    mode: 'fragment',
  },
};

/** The app's one redirect URI for every provider: GET with a fragment, or POST (form_post), see socialCallback.ts. */
export const SOCIAL_CALLBACK_PATH = '/login/social';

type SocialConfig = Pick<
  ServerConfig,
  | 'GOOGLE_CLIENT_ID'
  | 'APPLE_CLIENT_ID'
  | 'FACEBOOK_CLIENT_ID'
  | 'GOOGLE_ISSUER'
  | 'GOOGLE_JWKS_URL'
  | 'APPLE_ISSUER'
  | 'APPLE_JWKS_URL'
  | 'FACEBOOK_ISSUER'
  | 'FACEBOOK_JWKS_URL'
  | 'GOOGLE_AUTHORIZE_URL'
  | 'APPLE_AUTHORIZE_URL'
  | 'FACEBOOK_AUTHORIZE_URL'
>;

function settings(config: SocialConfig, provider: SocialProvider) {
  const upper = provider.toUpperCase() as 'GOOGLE' | 'APPLE' | 'FACEBOOK';
  const clientId = config[`${upper}_CLIENT_ID`];
  const issuer = config[`${upper}_ISSUER`];
  return {
    clientId: clientId || null,
    issuer: issuer ? [issuer] : DEFAULTS[provider].issuer,
    jwks: config[`${upper}_JWKS_URL`] ?? DEFAULTS[provider].jwks,
    authorize: config[`${upper}_AUTHORIZE_URL`] ?? DEFAULTS[provider].authorize,
  };
}

/** A login button: the provider and its authorization URL, to which the browser adds `state` and `nonce`. */
export interface SocialStart {
  provider: SocialProvider;
  url: string;
}

/** The configured providers' authorization requests (none when no client id is set). */
export function socialStarts(config: SocialConfig & { APP_URL: string }): SocialStart[] {
  return configuredProviders(config).map((provider) => {
    const { clientId, authorize } = settings(config, provider);
    const { responseType, scope, mode } = DEFAULTS[provider];
    const url = new URL(authorize);
    url.searchParams.set('client_id', clientId ?? '');
    url.searchParams.set('redirect_uri', `${config.APP_URL}${SOCIAL_CALLBACK_PATH}`);
    url.searchParams.set('response_type', responseType);
    url.searchParams.set('scope', scope);
    url.searchParams.set('response_mode', mode);
    return { provider, url: url.toString() };
  });
}

/** The providers whose client id is configured. */
export function configuredProviders(config: SocialConfig): SocialProvider[] {
  return SOCIAL_PROVIDERS.filter((p) => settings(config, p).clientId !== null);
}

/** Why an ID token was refused (never shown in detail to the caller). */
export class SocialTokenError extends Error {}

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** The verified identity of an ID token. */
export interface SocialIdentity {
  provider: SocialProvider;
  subject: string;
  email: string;
}

/** Verifies an ID token of a configured provider; throws SocialTokenError. */
export async function verifyIdToken(
  config: SocialConfig,
  provider: string,
  idToken: string,
  nonce: string | null | undefined,
): Promise<SocialIdentity> {
  if (!(SOCIAL_PROVIDERS as readonly string[]).includes(provider))
    throw new SocialTokenError('unknown provider');
  const p = provider as SocialProvider;
  const { clientId, issuer, jwks } = settings(config, p);
  if (!clientId) throw new SocialTokenError('provider not configured');
  if (!nonce) throw new SocialTokenError('nonce missing');
  let keySet = keySets.get(jwks);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(jwks), { timeoutDuration: 5000 });
    keySets.set(jwks, keySet);
  }
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(idToken, keySet, {
      issuer,
      audience: clientId,
      algorithms: ['RS256', 'ES256'],
      requiredClaims: ['sub', 'exp', 'iat'],
      clockTolerance: 30,
    }));
  } catch (err) {
    if (err instanceof errors.JOSEError) throw new SocialTokenError(err.code);
    throw err;
  }
  if (payload.nonce !== nonce) throw new SocialTokenError('nonce mismatch');
  const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
  if (!email) throw new SocialTokenError('no email in token');
  // Google and Apple say whether the address is verified (Apple as a string); an unverified one is refused.
  if (payload.email_verified === false || payload.email_verified === 'false') {
    throw new SocialTokenError('email not verified');
  }
  return { provider: p, subject: String(payload.sub), email };
}

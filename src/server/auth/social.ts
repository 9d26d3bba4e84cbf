/**
 * Social login: verifies a provider's OpenID Connect ID token for real, against the provider's published
 * keys (jose's remote JWKS, cached): signature, iss, aud = our client id, exp, and the nonce the app sent.
 * A provider is off until its client id is configured.
 */
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { ServerConfig } from '../config.ts';

/** SPEC §3: the social providers. */
export const SOCIAL_PROVIDERS = ['apple', 'google', 'facebook'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

const DEFAULTS: Record<SocialProvider, { issuer: string[]; jwks: string }> = {
  google: {
    issuer: ['https://accounts.google.com', 'accounts.google.com'],
    jwks: 'https://www.googleapis.com/oauth2/v3/certs',
  },
  apple: { issuer: ['https://appleid.apple.com'], jwks: 'https://appleid.apple.com/auth/keys' },
  // Facebook Limited Login issues OpenID Connect ID tokens.
  facebook: {
    issuer: ['https://www.facebook.com'],
    jwks: 'https://www.facebook.com/.well-known/oauth/openid/jwks/',
  },
};

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
>;

function settings(config: SocialConfig, provider: SocialProvider) {
  const upper = provider.toUpperCase() as 'GOOGLE' | 'APPLE' | 'FACEBOOK';
  const clientId = config[`${upper}_CLIENT_ID`];
  const issuer = config[`${upper}_ISSUER`];
  return {
    clientId: clientId || null,
    issuer: issuer ? [issuer] : DEFAULTS[provider].issuer,
    jwks: config[`${upper}_JWKS_URL`] ?? DEFAULTS[provider].jwks,
  };
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

/**
 * The parser of the build-time configuration (PUBLIC_* variables): zod, anything unset is off. Its own module,
 * so server code and the CLI can parse without `import.meta.env` (see config.ts).
 */
import { z } from 'zod/mini';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language, parseLanguage } from '../lib/languages.ts';

const text = () => z.optional(z.string());
const httpsUrl = () =>
  z.optional(
    z
      .string()
      .check(z.refine((v) => !v.trim() || /^https:\/\/\S+$/.test(v.trim()), 'must be an https:// URL')),
  );

// Built on first use: zod calls at module level would keep zod in every browser bundle.
const schema = () =>
  z.object({
    PUBLIC_BRAND: text(),
    PUBLIC_TITLE: text(),
    PUBLIC_DEFAULT_LANGUAGE: z.optional(
      z
        .string()
        .check(z.refine((v) => !v.trim() || parseLanguage(v) !== null, 'unknown language (use en, da, nb)')),
    ),
    PUBLIC_LANGUAGES: z.optional(
      z.string().check(
        z.superRefine((raw, ctx) => {
          for (const part of raw.split(',')) {
            if (part.trim() && !parseLanguage(part)) {
              ctx.issues.push({
                code: 'custom',
                input: raw,
                message: `unknown language "${part.trim()}" (use en, da, nb)`,
              });
            }
          }
        }),
      ),
    ),
    PUBLIC_ACCOUNT_GRAPHQL_ENDPOINT: text(),
    PUBLIC_TENANT_GRAPHQL_ENDPOINT: text(),
    PUBLIC_APPLE_CLIENT_ID: text(),
    PUBLIC_APPLE_REDIRECT_URI: text(),
    PUBLIC_FACEBOOK_CLIENT_ID: text(),
    PUBLIC_TAG_MANAGER_ID: text(),
    PUBLIC_SENTRY_DSN: text(),
    PUBLIC_APP_STORE_URL: httpsUrl(),
    PUBLIC_PLAY_STORE_URL: httpsUrl(),
  });

/** A set value, trimmed; unset and blank are both "off". */
const value = (x: string | undefined): string | null => (x?.trim() ? x.trim() : null);

function languageList(raw: string | undefined): Language[] {
  const parsed: Language[] = [];
  for (const part of (raw ?? '').split(',')) {
    const lang = parseLanguage(part);
    if (lang && !parsed.includes(lang)) parsed.push(lang);
  }
  return parsed.length > 0 ? parsed : [...LANGUAGES];
}

export type ClientConfig = {
  brand: string;
  title: string;
  defaultLanguage: Language;
  languages: Language[];
  accountEndpoint: string;
  tenantEndpoint: string;
  apple: { clientId: string; redirectUri: string } | null;
  facebookClientId: string | null;
  tagManagerId: string | null;
  sentryDsn: string | null;
  /** The brand's app in the stores (set per brand build); a link that is not set is not shown. */
  storeLinks: { appStore: string | null; playStore: string | null };
};

/** Parses PUBLIC_* variables; throws one error listing every bad variable. */
export function parseClientConfig(env: Record<string, unknown>): ClientConfig {
  const result = schema().safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid PUBLIC_* configuration:\n${lines.join('\n')}`);
  }
  const c = result.data;
  const languages = languageList(c.PUBLIC_LANGUAGES);
  const wanted = parseLanguage(c.PUBLIC_DEFAULT_LANGUAGE);
  // A default outside the enabled list would show a language the picker cannot offer.
  const defaultLanguage =
    wanted && languages.includes(wanted)
      ? wanted
      : languages.includes(FALLBACK_LANGUAGE)
        ? FALLBACK_LANGUAGE
        : languages[0]!;
  const appleId = value(c.PUBLIC_APPLE_CLIENT_ID);
  const appleRedirect = value(c.PUBLIC_APPLE_REDIRECT_URI);
  return {
    brand: value(c.PUBLIC_BRAND) ?? 'default',
    title: value(c.PUBLIC_TITLE) ?? 'Tenant App',
    defaultLanguage,
    languages,
    accountEndpoint: value(c.PUBLIC_ACCOUNT_GRAPHQL_ENDPOINT) ?? '/api/account/graphql',
    tenantEndpoint: value(c.PUBLIC_TENANT_GRAPHQL_ENDPOINT) ?? '/api/tenant/graphql',
    apple: appleId && appleRedirect ? { clientId: appleId, redirectUri: appleRedirect } : null,
    facebookClientId: value(c.PUBLIC_FACEBOOK_CLIENT_ID),
    tagManagerId: value(c.PUBLIC_TAG_MANAGER_ID),
    sentryDsn: value(c.PUBLIC_SENTRY_DSN),
    storeLinks: { appStore: value(c.PUBLIC_APP_STORE_URL), playStore: value(c.PUBLIC_PLAY_STORE_URL) },
  };
}

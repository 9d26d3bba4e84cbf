/** Build-time configuration (PUBLIC_* variables), parsed once with zod; anything unset is off. */
import { z } from 'zod';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language, parseLanguage } from '../lib/languages.ts';

const optional = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const languageList = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (!raw?.trim()) return [...LANGUAGES];
    const parsed: Language[] = [];
    for (const part of raw.split(',')) {
      const lang = parseLanguage(part);
      if (!lang) {
        ctx.addIssue({ code: 'custom', message: `unknown language "${part.trim()}" (use en, da, nb)` });
        return z.NEVER;
      }
      if (!parsed.includes(lang)) parsed.push(lang);
    }
    return parsed;
  });

const schema = z.object({
  PUBLIC_BRAND: z.string().trim().default('default'),
  PUBLIC_TITLE: z.string().trim().default('Tenant App'),
  PUBLIC_DEFAULT_LANGUAGE: optional,
  PUBLIC_LANGUAGES: languageList,
  PUBLIC_ACCOUNT_GRAPHQL_ENDPOINT: z.string().trim().default('/api/account/graphql'),
  PUBLIC_TENANT_GRAPHQL_ENDPOINT: z.string().trim().default('/api/tenant/graphql'),
  PUBLIC_APPLE_CLIENT_ID: optional,
  PUBLIC_APPLE_REDIRECT_URI: optional,
  PUBLIC_FACEBOOK_CLIENT_ID: optional,
  PUBLIC_TAG_MANAGER_ID: optional,
  PUBLIC_SENTRY_DSN: optional,
});

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
};

/** Parses PUBLIC_* variables; throws one error listing every bad variable. */
export function parseClientConfig(env: Record<string, unknown>): ClientConfig {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid PUBLIC_* configuration:\n${lines.join('\n')}`);
  }
  const c = result.data;
  const wanted = parseLanguage(c.PUBLIC_DEFAULT_LANGUAGE);
  if (c.PUBLIC_DEFAULT_LANGUAGE && !wanted) {
    throw new Error(`Invalid PUBLIC_* configuration:\n  - PUBLIC_DEFAULT_LANGUAGE: unknown language`);
  }
  const languages = c.PUBLIC_LANGUAGES;
  // A default outside the enabled list would show a language the picker cannot offer.
  const defaultLanguage =
    wanted && languages.includes(wanted)
      ? wanted
      : languages.includes(FALLBACK_LANGUAGE)
        ? FALLBACK_LANGUAGE
        : languages[0]!;
  return {
    brand: c.PUBLIC_BRAND,
    title: c.PUBLIC_TITLE,
    defaultLanguage,
    languages,
    accountEndpoint: c.PUBLIC_ACCOUNT_GRAPHQL_ENDPOINT,
    tenantEndpoint: c.PUBLIC_TENANT_GRAPHQL_ENDPOINT,
    apple:
      c.PUBLIC_APPLE_CLIENT_ID && c.PUBLIC_APPLE_REDIRECT_URI
        ? { clientId: c.PUBLIC_APPLE_CLIENT_ID, redirectUri: c.PUBLIC_APPLE_REDIRECT_URI }
        : null,
    facebookClientId: c.PUBLIC_FACEBOOK_CLIENT_ID ?? null,
    tagManagerId: c.PUBLIC_TAG_MANAGER_ID ?? null,
    sentryDsn: c.PUBLIC_SENTRY_DSN ?? null,
  };
}

/** The app's configuration, read from the build's PUBLIC_* variables. */
export const config: ClientConfig = parseClientConfig(import.meta.env ?? {});

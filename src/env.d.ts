/// <reference types="astro/client" />

interface ImportMetaEnv {
  readonly PUBLIC_BRAND?: string;
  readonly PUBLIC_TITLE?: string;
  readonly PUBLIC_DEFAULT_LANGUAGE?: string;
  readonly PUBLIC_LANGUAGES?: string;
  readonly PUBLIC_ACCOUNT_GRAPHQL_ENDPOINT?: string;
  readonly PUBLIC_TENANT_GRAPHQL_ENDPOINT?: string;
  readonly PUBLIC_APPLE_CLIENT_ID?: string;
  readonly PUBLIC_APPLE_REDIRECT_URI?: string;
  readonly PUBLIC_FACEBOOK_CLIENT_ID?: string;
  readonly PUBLIC_TAG_MANAGER_ID?: string;
  readonly PUBLIC_SENTRY_DSN?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

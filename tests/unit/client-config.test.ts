import { describe, expect, it } from 'vitest';
import { parseClientConfig } from '../../src/client/config.ts';

describe('parseClientConfig', () => {
  it('has working defaults with every outside service off', () => {
    expect(parseClientConfig({})).toEqual({
      brand: 'default',
      title: 'Tenant App',
      defaultLanguage: 'en',
      languages: ['en', 'da', 'nb'],
      accountEndpoint: '/api/account/graphql',
      tenantEndpoint: '/api/tenant/graphql',
      apple: null,
      facebookClientId: null,
      tagManagerId: null,
      sentryDsn: null,
      storeLinks: { appStore: null, playStore: null },
    });
  });

  it('takes the store links of a brand build; unset ones stay off, and only https links are accepted', () => {
    const c = parseClientConfig({
      PUBLIC_APP_STORE_URL: ' https://apps.apple.com/dk/app/x/id1 ',
      PUBLIC_PLAY_STORE_URL: '',
    });
    expect(c.storeLinks).toEqual({ appStore: 'https://apps.apple.com/dk/app/x/id1', playStore: null });
    expect(() => parseClientConfig({ PUBLIC_PLAY_STORE_URL: 'javascript:alert(1)' })).toThrow(
      /PUBLIC_PLAY_STORE_URL: must be an https:\/\/ URL/,
    );
  });

  it('limits languages and keeps the default inside them', () => {
    const c = parseClientConfig({ PUBLIC_LANGUAGES: 'da, nb-NO', PUBLIC_DEFAULT_LANGUAGE: 'en' });
    expect(c.languages).toEqual(['da', 'nb']);
    expect(c.defaultLanguage).toBe('da');
    expect(parseClientConfig({ PUBLIC_DEFAULT_LANGUAGE: 'nb' }).defaultLanguage).toBe('nb');
  });

  it('turns Apple on only with both client id and redirect URI', () => {
    expect(parseClientConfig({ PUBLIC_APPLE_CLIENT_ID: 'id' }).apple).toBeNull();
    expect(
      parseClientConfig({ PUBLIC_APPLE_CLIENT_ID: 'id', PUBLIC_APPLE_REDIRECT_URI: 'https://x/cb' }).apple,
    ).toEqual({ clientId: 'id', redirectUri: 'https://x/cb' });
    expect(parseClientConfig({ PUBLIC_SENTRY_DSN: '  ' }).sentryDsn).toBeNull();
  });

  it('names every bad variable in one error', () => {
    expect(() => parseClientConfig({ PUBLIC_LANGUAGES: 'en,fr' })).toThrow(
      /PUBLIC_LANGUAGES: unknown language "fr"/,
    );
    expect(() => parseClientConfig({ PUBLIC_DEFAULT_LANGUAGE: 'sv' })).toThrow(/PUBLIC_DEFAULT_LANGUAGE/);
  });
});

import { describe, expect, it } from 'vitest';
import { SENTRY_SAMPLE_RATES, scrubEvent, scrubText } from '../../src/lib/privacyScrub.ts';

describe('privacyScrub: no personal data in error reports', () => {
  it('masks emails, tokens and report codes in text', () => {
    const text = scrubText(
      'mette@demo.test failed at /report/Zx9_aBcdEfGhIjKlMnOpQrStUv with eyJhbGciOi.eyJzdWIiOjF9.c2ln',
    );
    expect(text).toBe('[email] failed at /report/[code] with [token]');
  });

  it('drops the user, cookies, auth headers, body and query string', () => {
    const event = scrubEvent({
      user: { email: 'a@b.dk', ip_address: '10.0.0.1' },
      request: {
        url: 'https://x.dk/report/abcdefghijklmnopqrstuvwxyz012?lang=da',
        query_string: 'lang=da',
        cookies: { lang: 'da' },
        data: '{"password":"x"}',
        headers: { Authorization: 'Bearer t', Cookie: 'a=b', 'User-Agent': 'Chromium' },
      },
      exception: { values: [{ type: 'Error', value: 'no user ola@x.no' }] },
    });
    expect(event).toEqual({
      request: { url: 'https://x.dk/report/[code]', headers: { 'User-Agent': 'Chromium' } },
      exception: { values: [{ type: 'Error', value: 'no user [email]' }] },
    });
  });

  it('uses the sample rates of SPEC §9', () => {
    expect(SENTRY_SAMPLE_RATES).toEqual({ replaysSessionSampleRate: 0.5, replaysOnErrorSampleRate: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { languageCookie } from '../../src/client/languageChoice.ts';

describe('the lang cookie', () => {
  it('is Secure when the page came over TLS', () => {
    expect(languageCookie('da', 'https:')).toBe('lang=da; path=/; max-age=31536000; SameSite=Lax; Secure');
  });

  it('is not Secure over plain HTTP (a Secure cookie would not be stored there)', () => {
    expect(languageCookie('nb', 'http:')).toBe('lang=nb; path=/; max-age=31536000; SameSite=Lax');
  });
});

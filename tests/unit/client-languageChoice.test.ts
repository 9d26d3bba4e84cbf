import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  saveLanguageChoice,
  storedLanguage,
  storedLanguageMismatch,
} from '../../src/client/languageChoice.ts';

let store: Map<string, string>;
let doc: { documentElement: { lang: string }; cookie: string };

beforeEach(() => {
  store = new Map();
  doc = { documentElement: { lang: 'en' }, cookie: '' };
  vi.stubGlobal('document', doc);
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the language choice', () => {
  it('is saved in storage, mirrored in the cookie for a year, and marks the document', () => {
    saveLanguageChoice('da');
    expect(store.get('language')).toBe('da');
    expect(doc.cookie).toBe('lang=da; path=/; max-age=31536000; SameSite=Lax');
    expect(doc.documentElement.lang).toBe('da');
  });

  it('still reaches the cookie when the browser refuses storage', () => {
    vi.stubGlobal('window', {
      get localStorage(): Storage {
        throw new Error('SecurityError');
      },
    });
    saveLanguageChoice('nb');
    expect(doc.cookie).toContain('lang=nb;');
    expect(storedLanguage()).toBeNull();
  });

  it('reports a stored choice that differs from the rendered page, and nothing else', () => {
    expect(storedLanguageMismatch()).toBeNull();
    store.set('language', 'nb-NO');
    expect(storedLanguageMismatch()).toBe('nb');
    doc.documentElement.lang = 'nb';
    expect(storedLanguageMismatch()).toBeNull();
    store.set('language', 'constructor');
    expect(storedLanguageMismatch()).toBeNull();
  });

  it('leaves a page the server rendered in another language despite the cookie (no reload loop)', () => {
    store.set('language', 'da');
    doc.cookie = 'cookieAccepted=true; lang=da';
    doc.documentElement.lang = 'en';
    expect(storedLanguageMismatch()).toBeNull();
    doc.cookie = 'cookieAccepted=true';
    expect(storedLanguageMismatch()).toBe('da');
  });
});

import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getI18n, NAMESPACES, resolveLanguage, serverT } from '../../src/client/i18n.ts';

const localesDir = new URL('../../locales/en', import.meta.url).pathname;

describe('i18n on the server', () => {
  it('declares every namespace that has a locale file', () => {
    const files = readdirSync(localesDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    expect([...NAMESPACES].sort()).toEqual(files.sort());
  });

  it('translates every language synchronously, each namespace included', () => {
    expect(serverT('en')('login.title')).toBe('Log in');
    expect(serverT('da')('login.title')).toBe('Log ind');
    expect(serverT('nb')('login.title')).toBe('Logg inn');
    expect(serverT('da')('domain:validation.email_invalid')).not.toBe('validation.email_invalid');
  });

  it('writes a quantity name in lower case inside a sentence ({{quantity, lowercase}})', () => {
    expect(serverT('da')('consumption:dashboard.open', { quantity: 'Varmeenergi' })).toBe('Åbn varmeenergi');
    expect(serverT('nb')('consumption:dashboard.open', { quantity: 'Varmtvann' })).toBe('Åpne varmtvann');
    expect(serverT('en')('consumption:dashboard.open', { quantity: 'Heat energy' })).toBe('Open heat energy');
  });

  it('keeps one instance per language, so requests never share a mutable language', () => {
    expect(getI18n('da')).toBe(getI18n('da'));
    expect(getI18n('da')).not.toBe(getI18n('nb'));
    expect(getI18n('nb').language).toBe('nb');
  });

  it('resolves regional variants and falls back to the default for anything unknown', () => {
    expect(resolveLanguage('nb-NO')).toBe('nb');
    expect(resolveLanguage('da_DK')).toBe('da');
    expect(resolveLanguage('sv')).toBe('en');
    expect(resolveLanguage(undefined)).toBe('en');
    expect(resolveLanguage('da', ['en', 'nb'])).toBe('en');
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../locales', import.meta.url).pathname;
const languages = readdirSync(root)
  .filter((name) => !name.startsWith('.'))
  .sort();
const namespaces = [...new Set(languages.flatMap((lang) => readdirSync(join(root, lang))))].sort();

/** Every leaf key of a JSON object, dotted ("errors.no_data"). */
function leafKeys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => leafKeys(child, prefix ? `${prefix}.${key}` : key));
}

function read(lang: string, file: string): unknown {
  try {
    return JSON.parse(readFileSync(join(root, lang, file), 'utf8'));
  } catch {
    return undefined;
  }
}

describe('locales', () => {
  it('has en, da and nb', () => {
    expect(languages).toEqual(['da', 'en', 'nb']);
  });

  for (const file of namespaces) {
    it(`${file}: every language has exactly the same keys, none empty`, () => {
      const keysByLanguage = Object.fromEntries(
        languages.map((lang) => [lang, leafKeys(read(lang, file) ?? {}).filter(Boolean)]),
      );
      const all = [...new Set(Object.values(keysByLanguage).flat())].sort();
      const missing = languages.flatMap((lang) =>
        all.filter((key) => !keysByLanguage[lang]!.includes(key)).map((key) => `${lang}/${file}: ${key}`),
      );
      expect(missing).toEqual([]);
      const empty = languages.flatMap((lang) =>
        keysByLanguage[lang]!.filter((key) => {
          const value = key
            .split('.')
            .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], read(lang, file));
          return typeof value !== 'string' || value.trim() === '';
        }).map((key) => `${lang}/${file}: ${key}`),
      );
      expect(empty).toEqual([]);
    });
  }
});

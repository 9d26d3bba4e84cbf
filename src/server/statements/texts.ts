/** The statement texts (locales/<lang>/reports.json) for server code that runs outside Vite (PDF, CLI). */
import da from '../../../locales/da/reports.json' with { type: 'json' };
import en from '../../../locales/en/reports.json' with { type: 'json' };
import nb from '../../../locales/nb/reports.json' with { type: 'json' };
import type { Language } from '../../lib/languages.ts';

const TEXTS: Record<Language, unknown> = { en, da, nb };

function lookup(tree: unknown, key: string): string | null {
  let node = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return null;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : null;
}

/** A translate function for one language with English fallback and {{name}} interpolation. */
export function reportsT(lang: Language) {
  return (key: string, values: Record<string, string | number> = {}): string => {
    const text = lookup(TEXTS[lang], key) ?? lookup(TEXTS.en, key) ?? key;
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
  };
}

import { useEffect } from 'react';
import { formatNumber, moneyFormat } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';

/**
 * Builds the page's first number formatter (and, with `money`, its money formatter) while the answers are on their
 * way, in an idle callback: loading the locale's data took 12–33 ms in Chromium and four times that on Lighthouse's
 * phone, and inside the render of the answers it was blocking time. The formatters are cached (lib/format.ts).
 */
export function useWarmFormatters(lang: Language, money = false): void {
  useEffect(() => {
    const warm = () => {
      formatNumber(0, lang);
      if (money) moneyFormat('DKK', lang);
    };
    if ('requestIdleCallback' in window) {
      const id = requestIdleCallback(warm, { timeout: 1000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(warm, 0);
    return () => clearTimeout(id);
  }, [lang, money]);
}

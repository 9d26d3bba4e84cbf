/** Wraps an island in the page's i18n instance and the shared QueryClient (islands share no context). */

import { navigate } from 'astro:transitions/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { changeLanguage, getI18n, storedLanguage } from '../../client/i18n.ts';
import { queryClient } from '../../client/queryClient.ts';
import type { Language } from '../../lib/languages.ts';

let languageChecked = false;

/** i18n and query providers for one island, in the language the server rendered. */
export function Providers({ lang, children }: { lang: Language; children: ReactNode }) {
  const i18n = getI18n(lang);
  useEffect(() => {
    if (languageChecked) return;
    languageChecked = true;
    // The cookie can be missing (cleared, other subdomain); the stored choice wins, then the shell re-renders.
    const stored = storedLanguage();
    if (stored && stored !== lang) {
      void changeLanguage(stored).then(() => navigate(window.location.href, { history: 'replace' }));
    }
  }, [lang]);
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </I18nextProvider>
  );
}

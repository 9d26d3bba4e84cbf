/** Wraps an island in the page's i18n instance and the shared QueryClient (islands share no context). */

import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { getI18n } from '../../client/i18n.ts';
import { queryClient } from '../../client/queryClient.ts';
import type { Language } from '../../lib/languages.ts';

/** i18n and query providers for one island, in the language the server rendered. */
export function Providers({ lang, children }: { lang: Language; children: ReactNode }) {
  return (
    <I18nextProvider i18n={getI18n(lang)}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </I18nextProvider>
  );
}

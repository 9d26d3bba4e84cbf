/** The language picker as a stand-alone island, for the unauthenticated layout. */
import type { Language } from '../../lib/languages.ts';
import { LanguagePicker } from '../shared/LanguagePicker.tsx';
import { Providers } from '../shared/Providers.tsx';

export default function LanguageIsland({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <LanguagePicker compact />
    </Providers>
  );
}

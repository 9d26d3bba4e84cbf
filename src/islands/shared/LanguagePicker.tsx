/** The language picker (SPEC §2): English, Dansk, Norsk, limited to the enabled languages. */
import { navigate } from 'astro:transitions/client';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { config } from '../../client/config.ts';
import { changeLanguage } from '../../client/i18n.ts';
import { parseLanguage } from '../../lib/languages.ts';

/** A labelled select; choosing re-renders the islands at once and the server parts by a soft reload. */
export function LanguagePicker({ compact = false }: { compact?: boolean }) {
  const { t, i18n } = useTranslation('common');
  const id = useId();
  if (config.languages.length < 2) return null;
  return (
    <div className={compact ? 'language-picker compact' : 'language-picker'}>
      <label htmlFor={id} className={compact ? 'visually-hidden' : 'field-label'}>
        {t('language.label')}
      </label>
      <select
        id={id}
        value={parseLanguage(i18n.language) ?? config.defaultLanguage}
        onChange={async (event) => {
          const lang = parseLanguage(event.target.value);
          if (!lang) return;
          await changeLanguage(lang);
          await navigate(window.location.href, { history: 'replace' });
        }}
      >
        {config.languages.map((lang) => (
          <option key={lang} value={lang} lang={lang}>
            {t(`language.${lang}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

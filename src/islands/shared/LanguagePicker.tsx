/** The header's language picker (SPEC §2): English, Dansk, Norsk, limited to the enabled languages. */
import { navigate } from 'astro:transitions/client';
import { useTranslation } from 'react-i18next';
import { config } from '../../client/config.ts';
import { changeLanguage } from '../../client/i18n.ts';
import { updateProfile } from '../../client/operations/profile.ts';
import { getSessionActor } from '../../client/session.ts';
import { parseLanguage } from '../../lib/languages.ts';
import { ChoiceMenu } from '../shell/ChoiceMenu.tsx';

/**
 * Switches the interface and, for a logged-in user, saves the choice to the account, so the header and the
 * profile are one setting and the next login on another device opens in it. The islands re-render at once and
 * the server parts by a soft reload.
 */
async function chooseLanguage(value: string, saveToAccount = false): Promise<void> {
  const lang = parseLanguage(value);
  if (!lang) return;
  if (saveToAccount && getSessionActor().getSnapshot().context.user) {
    // The interface switches even when the account cannot be reached; the profile shows what was saved.
    await updateProfile({ language: lang }).catch(() => undefined);
  }
  await changeLanguage(lang);
  await navigate(window.location.href, { history: 'replace' });
}

/**
 * The picker: choosing is an explicit act (ChoiceMenu), arrow keys alone switch nothing. `saveToAccount`: the
 * tenant app's header, where a logged-in choice is saved to the account too. It is always compact (the
 * `compact` flag is kept for the pages that pass it).
 */
export function LanguagePicker({ saveToAccount = false }: { compact?: boolean; saveToAccount?: boolean }) {
  const { t, i18n } = useTranslation('common');
  if (config.languages.length < 2) return null;
  return (
    <ChoiceMenu
      className="language-picker"
      label={t('language.label')}
      current={parseLanguage(i18n.language) ?? config.defaultLanguage}
      choices={config.languages.map((lang) => ({ value: lang, text: t(`language.${lang}`), lang }))}
      onChoose={(value) => void chooseLanguage(value, saveToAccount)}
    />
  );
}

/** CO₂ fun facts with their sources. */
import { useTranslation } from 'react-i18next';
import { co2FunFacts } from '../../lib/co2.ts';
import { formatNumber } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';

/** The CO₂ fun facts (src/lib/co2.ts) for a number of grams, with their sources. */
export function FunFacts({ grams, limit }: { grams: number; limit?: number }) {
  const { t, i18n } = useTranslation('domain');
  const lang = (i18n.language as Language) ?? 'en';
  const facts = co2FunFacts(grams).slice(0, limit);
  if (facts.length === 0) return null;
  return (
    <ul className="fun-facts">
      {facts.map((f) => (
        <li key={f.id}>
          <span>
            {t(f.textKey, {
              value: formatNumber(f.value, lang, { maximumFractionDigits: f.value < 10 ? 1 : 0 }),
            })}
          </span>
          <span className="muted small"> {t(f.sourceKey)}</span>
        </li>
      ))}
    </ul>
  );
}

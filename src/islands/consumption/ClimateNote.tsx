/** Under the heat KPIs: which degree-day correction was applied, with its degree days, or why none was. */
import { useTranslation } from 'react-i18next';
import type { GraphConsumption } from '../../client/operations/tenantGraph.ts';
import { formatNumber } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';

/** The server's reason code (docs/domain.md) in the user's language; an unknown code generically. */
function notAppliedKey(
  reason: string | null,
): 'climate.no_outdoor_data' | 'climate.not_heating' | 'climate.not_applied' {
  if (reason === 'degree_days_missing') return 'climate.no_outdoor_data';
  if (reason === 'not_heating_quantity') return 'climate.not_heating';
  return 'climate.not_applied';
}

export function ClimateNote({ correction }: { correction: GraphConsumption['climateCorrection'] }) {
  const { t, i18n } = useTranslation('consumption');
  if (!correction) return null;
  const lang = (i18n.language as Language) ?? 'en';
  if (correction.applied === 'NONE')
    return (
      <p className="note" data-testid="climate-note">
        {t(notAppliedKey(correction.reason))}
      </p>
    );
  return (
    <p className="note" data-testid="climate-note">
      {t('climate.applied', {
        base: formatNumber(correction.baseTemperature, lang),
        share: formatNumber((1 - correction.hotWaterShare) * 100, lang, { maximumFractionDigits: 0 }),
        degreeDays: formatNumber(correction.degreeDays ?? Number.NaN, lang, { maximumFractionDigits: 0 }),
        lastYear: formatNumber(correction.lastYearDegreeDays ?? Number.NaN, lang, {
          maximumFractionDigits: 0,
        }),
        normal: formatNumber(correction.normalDegreeDays ?? Number.NaN, lang, { maximumFractionDigits: 0 }),
      })}
    </p>
  );
}

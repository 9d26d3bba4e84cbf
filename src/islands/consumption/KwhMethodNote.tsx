/** Under the hca KPIs with the kWh estimate on: how the estimate was made, and the kWh per allocator unit. */
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';

/** The codes of kwhEstimateMethod (docs/domain.md); one this client does not know is left out. */
const KWH_METHODS = ['supply-meter', 'metered-flats', 'operator-factor', 'none'] as const;
const isKwhMethod = (code: string): code is (typeof KWH_METHODS)[number] =>
  (KWH_METHODS as readonly string[]).includes(code);

export function KwhMethodNote({
  method,
  kwhPerUnit,
  lang,
}: {
  /** QuantityKpi.kwhEstimateMethod: comma-separated codes. */
  method: string;
  kwhPerUnit: number | null | undefined;
  lang: Language;
}) {
  const { t } = useTranslation('consumption');
  return (
    <p className="note" data-testid="kwh-method">
      {t('kpi.kwh_method', {
        // Codes, one per way a month's kWh per unit was found (docs/domain.md), each translated.
        method: [
          ...method
            .split(',')
            .filter(isKwhMethod)
            .map((code) => t(`kpi.kwh_methods.${code}`)),
          ...(kwhPerUnit == null
            ? []
            : [
                t('kpi.kwh_factor', { factor: formatNumber(kwhPerUnit, lang, { maximumFractionDigits: 3 }) }),
              ]),
        ].join(' '),
      })}
    </p>
  );
}

/** The quantity page's view options: consumption or CO₂, per m², last year, kWh estimate, weather correction. */
import { useTranslation } from 'react-i18next';
import type { QuantityOptionsState } from './useQuantityOptions.ts';

export function QuantityOptions({ options }: { options: QuantityOptionsState }) {
  const { t } = useTranslation('consumption');
  const { graphType, setGraphType } = options;
  return (
    <fieldset className="view-options">
      <legend className="visually-hidden">{t('options.label')}</legend>
      {options.co2Pending && (
        // The switch's place while the property's CO₂ factors load: same box, not seen, not focusable.
        <div className="segmented placeholder-switch" aria-hidden="true" data-testid="co2-switch-placeholder">
          <span className="segment">{t('options.consumption')}</span>
          <span className="segment">{t('options.co2')}</span>
        </div>
      )}
      {options.canCo2 && (
        <div className="segmented" role="radiogroup" aria-label={t('options.show')}>
          {(['HOURLY_VALUES', 'CO2'] as const).map((type) => (
            <label key={type} className={graphType === type ? 'segment active' : 'segment'}>
              <input
                className="segment-input"
                type="radio"
                name="graph-type"
                value={type}
                checked={graphType === type}
                onChange={() => setGraphType(type)}
              />
              {type === 'CO2' ? t('options.co2') : t('options.consumption')}
            </label>
          ))}
        </div>
      )}
      {options.normalizable && (
        <label className="check">
          <input
            type="checkbox"
            checked={options.normalizedPick}
            onChange={(e) => options.setNormalized(e.target.checked)}
          />
          {t('options.per_m2')}
        </label>
      )}
      <Check checked={options.lastYear} onChange={options.setLastYear}>
        {t('options.last_year')}
      </Check>
      {options.canEstimate && (
        <Check checked={options.kwhEstimate} onChange={options.setKwhEstimate}>
          {t('options.kwh_estimate')}
        </Check>
      )}
      {options.canClimate && (
        <Check checked={options.climate} onChange={options.setClimate}>
          {t('options.climate')}
        </Check>
      )}
    </fieldset>
  );
}

/** One option as a labelled checkbox. */
function Check({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: React.ReactNode;
}) {
  return (
    <label className="check">
      <input
        className="check-input"
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      {children}
    </label>
  );
}

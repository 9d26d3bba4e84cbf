/** The dashboard island: heat energy of the selected tenancy's apartment, last 30 days by day. */
import { useEffect, useMemo } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useTenantGraph } from '../../client/operations/tenantGraph.ts';
import { errorMessageKey } from '../../lib/errors.ts';
import { formatQuantity } from '../../lib/format.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { defaultPeriod, toServerMinuteRange } from '../../lib/periods.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useSession } from '../shared/useSession.ts';
import { useTenancyUnit } from '../shared/useTenancyUnit.ts';
import { dailySeries } from './chartData.ts';
import { HeatChart } from './HeatChart.tsx';

const QUANTITY = 'heat-energy';

/** The island. */
export default function HeatDashboard({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <Dashboard />
    </Providers>
  );
}

function Dashboard() {
  const { t, i18n } = useTranslation(['common', 'domain']);
  const lang = parseLanguage(i18n.language) ?? 'en';
  const ready = useSession((s) => s.matches({ loggedIn: { tenancy: 'withTenancies' } }));
  const selectedId = useSession((s) => s.context.selectedTenancyId);
  const { units, unit } = useTenancyUnit(ready ? selectedId : null);
  const period = useMemo(() => defaultPeriod(), []);
  const graphInput = useMemo(
    () =>
      unit
        ? {
            graphType: 'HOURLY_VALUES' as const,
            resolution: 'DAY' as const,
            objects: [{ kind: 'UNIT' as const, id: unit.unit.id }],
            quantities: [QUANTITY],
            ...toServerMinuteRange(period),
          }
        : null,
    [unit, period],
  );
  const graph = useTenantGraph(graphInput);
  const series = useMemo(() => dailySeries(graph.data, QUANTITY, lang), [graph.data, lang]);
  const failure = units.error ?? graph.error;

  useEffect(() => {
    if (failure) toast.error(t('dashboard.error'), { id: 'dashboard-error' });
  }, [failure, t]);

  if (!ready) return null;

  let body: React.ReactNode;
  if (failure) {
    body = (
      <div className="state-box" role="alert">
        <p>{t('dashboard.error')}</p>
        <button
          type="button"
          className="button secondary"
          onClick={() => void (units.error ? units.refetch() : graph.refetch())}
        >
          {t('dashboard.retry')}
        </button>
      </div>
    );
  } else if (units.isPending || (graphInput && graph.isPending)) {
    body = <Spinner label={t('dashboard.loading')} />;
  } else if (!unit || !series.hasData) {
    body = (
      <div className="state-box empty">
        <p>{t(`domain:${errorMessageKey('no_data')}`)}</p>
      </div>
    );
  } else {
    body = (
      <>
        <p className="kpi" data-testid="heat-total">
          <span className="kpi-label">{t('dashboard.total')}</span>
          <span className="kpi-value">{formatQuantity(series.total, QUANTITY, lang)}</span>
        </p>
        <HeatChart
          labels={series.labels}
          values={series.values}
          lang={lang}
          title={t('domain:quantities.heat-energy')}
        />
      </>
    );
  }

  return (
    <section className="card" aria-labelledby="heat-title">
      <header className="card-header">
        <div>
          <h2 id="heat-title">{t('domain:quantities.heat-energy')}</h2>
          <p className="card-subtitle">
            {t('dashboard.last_30_days')} · {t('dashboard.daily')}
          </p>
        </div>
      </header>
      {body}
    </section>
  );
}

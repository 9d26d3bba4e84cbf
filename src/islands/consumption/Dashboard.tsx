/**
 * The dashboard (SPEC §2 /): one card per quantity of the tenancy (total, comparison smiley, small graph, link),
 * the A+–G rating over 365 days per m², and the CO₂ footprint with a fun fact. All data in one request.
 */
import { useDeferredValue, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fetchUnitsAlone,
  type TenancyDashboard,
  useTenancyDashboard,
} from '../../client/operations/tenancyDashboard.ts';
import { formatCo2 } from '../../lib/format.ts';
import type { Language } from '../../lib/languages.ts';
import {
  ratingBasisPeriod,
  todayInCopenhagen,
  toServerDates,
  toServerMinuteRange,
} from '../../lib/periods.ts';
import { type QuantityId, quantityKey } from '../../lib/quantities.ts';
import { consumptionRating, ratingKey } from '../../lib/ratings.ts';
import { tenancyQuantities } from '../../lib/tenancyQuantities.ts';
import { Providers } from '../shared/Providers.tsx';
import { ClimateNow } from './ClimateNow.tsx';
import { FunFacts } from './FunFacts.tsx';
import { GraphPanel } from './GraphPanel.tsx';
import { quantityGraphModel } from './graphModel.ts';
import { ComparisonSmiley } from './Kpis.tsx';
import { NoData } from './NoData.tsx';
import { PeriodBar } from './PeriodBar.tsx';
import { usePeriod } from './usePeriod.ts';
import { useTenancyData } from './useTenancyData.ts';
import { useWarmFormatters } from './useWarmFormatters.ts';
import { valueFormat } from './valueFormat.ts';

/** The island. */
export default function Dashboard({ lang }: { lang: Language }) {
  return (
    <Providers lang={lang}>
      <DashboardView />
    </Providers>
  );
}

function DashboardView() {
  const { t } = useTranslation(['consumption', 'domain', 'common']);
  // The units come with the dashboard's own request (tenancyDashboard), not before it.
  const { lang, ready, tenancy, unit, hasHourlyData, userId } = useTenancyData({ fetchUnits: false });
  const state = usePeriod('default', hasHourlyData);
  const { period, comparison, serverResolution: resolution } = state;
  const { consumption: quantities, climate } = useMemo(
    () => tenancyQuantities(tenancy?.meterUnits ?? []),
    [tenancy?.meterUnits],
  );
  const tenancyId = ready ? (tenancy?.id ?? null) : null;
  const input = useMemo(() => {
    if (!tenancyId || quantities.length === 0) return null;
    const dates = toServerDates(period);
    const graph = toServerMinuteRange(period);
    const rating = toServerDates(ratingBasisPeriod(todayInCopenhagen()));
    return {
      tenancyId,
      quantities: [...quantities],
      resolution,
      graphBegin: graph.periodBegin,
      graphEnd: graph.periodEnd,
      related: [comparison === 'property' ? ('PROPERTY' as const) : ('LAST_PERIOD' as const)],
      periodBegin: dates.periodBegin,
      periodEnd: dates.periodEnd,
      ratingBegin: rating.periodBegin,
      ratingEnd: rating.periodEnd,
    };
  }, [tenancyId, quantities, period, resolution, comparison]);
  const query = useTenancyDashboard(input, userId);
  // The answer draws every card at once: as a deferred value React renders it in slices that yield to the
  // browser, not in one long task (Lighthouse's Total Blocking Time). The input goes with it, so an answer for
  // another period or tenancy is never shown while the new one renders: the cards stay placeholders then.
  const answer = useMemo(() => ({ input, data: query.data }), [input, query.data]);
  const deferred = useDeferredValue(answer);
  const shown = deferred.input === input ? deferred.data : undefined;
  // A tenancy without quantities asks for no dashboard, so the menu's units come alone.
  const asksNothing = tenancyId !== null && input === null;
  useEffect(() => {
    if (asksNothing && userId) fetchUnitsAlone(userId);
  }, [asksNothing, userId]);
  useWarmFormatters(lang);

  if (!ready) return <DashboardSkeleton />;
  const base = tenancy ? `/t/${encodeURIComponent(tenancy.id)}/` : '/';
  const failure = query.error;
  const loading = !failure && input !== null && (query.isPending || shown === undefined);

  return (
    <div className="consumption-page">
      <PeriodBar state={state} comparison minDate={tenancy?.dataAvailability.start} />
      {failure && (
        <div className="state-box" role="alert">
          <p>{t('failed')}</p>
          <button type="button" className="button secondary" onClick={() => void query.refetch()}>
            {t('retry')}
          </button>
        </div>
      )}
      {!loading && quantities.length === 0 && !failure && <NoData />}
      <div className="dashboard-grid">
        {quantities.map((q) => (
          <QuantityCard
            key={q}
            quantity={q}
            data={shown}
            loading={loading}
            lang={lang}
            comparison={comparison}
            href={`${base}consumption/${q}`}
            fileParts={[q, period.startDate, period.endDate]}
            resolution={resolution}
          />
        ))}
        {climate && (
          <section className="card climate-card" aria-labelledby="climate-title">
            <h2 id="climate-title" className="card-heading">
              {t('dashboard.indoor_climate')}
            </h2>
            {unit ? <ClimateNow unitId={unit.unit.id} lang={lang} /> : <div className="placeholder-line" />}
            <p>
              <a className="button secondary" href={`${base}consumption/indoor-climate`}>
                {t('dashboard.open_indoor_climate')}
              </a>
            </p>
          </section>
        )}
      </div>
      {quantities.length > 0 && <Extras data={shown} loading={loading} lang={lang} />}
    </div>
  );
}

/** ConsumptionSkeleton.astro's dashboard variant: what the page showed before, until the session is ready. */
function DashboardSkeleton() {
  const { t } = useTranslation('consumption');
  return (
    <div className="consumption-page skeleton" aria-busy="true">
      <p className="visually-hidden" role="status">
        {t('loading')}
      </p>
      <div className="period-bar placeholder-block with-compare" aria-hidden="true" />
      <div className="dashboard-grid" aria-hidden="true">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="card quantity-card placeholder-card" />
        ))}
      </div>
    </div>
  );
}

function QuantityCard({
  quantity,
  data,
  loading,
  lang,
  comparison,
  href,
  resolution,
  fileParts,
}: {
  quantity: QuantityId;
  data: TenancyDashboard | undefined;
  loading: boolean;
  lang: Language;
  comparison: 'property' | 'last_period';
  href: string;
  resolution: ReturnType<typeof usePeriod>['serverResolution'];
  fileParts: string[];
}) {
  const { t } = useTranslation(['consumption', 'domain', 'common']);
  const name = t(quantityKey(quantity));
  const kpi = data?.kpis.find((k) => k.quantityDescriptor.quantity === quantity);
  const format = valueFormat(quantity, 'HOURLY_VALUES', lang);
  const model = useMemo(
    () => quantityGraphModel(data?.tenantGraph, quantity, resolution, format, name, []),
    [data, quantity, resolution, format, name],
  );
  const hasData = model.series[0]?.values.some((v) => v !== null) ?? false;
  const reference = kpi ? (comparison === 'property' ? kpi.propertyComparison : kpi.previousPeriod) : null;
  const ratingKpi = data?.rating.find((k) => k.quantityDescriptor.quantity === quantity);
  const rating =
    ratingKpi?.total != null && ratingKpi.propertyComparison != null
      ? consumptionRating(ratingKpi.total, ratingKpi.propertyComparison)
      : null;
  const headingId = `card-${quantity}`;
  return (
    <section className="card quantity-card" aria-labelledby={headingId} data-testid={`card-${quantity}`}>
      <header className="quantity-card-header">
        <h2 id={headingId} className="card-heading">
          <a href={href}>{name}</a>
        </h2>
        {rating && (
          <span
            className={`rating rating-${rating === 'A+' ? 'Aplus' : rating}`}
            title={t(`domain:${ratingKey(rating)}`)}
          >
            <span className="visually-hidden">{t('dashboard.rating_title')}: </span>
            {rating}
          </span>
        )}
      </header>
      {loading ? (
        <div className="quantity-card-body placeholder" aria-hidden="true" />
      ) : !kpi || kpi.total === null || !hasData ? (
        <NoData inline />
      ) : (
        <>
          <p className="kpi" data-testid={quantity === 'heat-energy' ? 'heat-total' : `total-${quantity}`}>
            <span className="kpi-label">{kpi.partial ? t('kpi.total_so_far') : t('kpi.total')}</span>
            <span className="kpi-value">{format.format(kpi.total)}</span>
            <ComparisonSmiley value={kpi.total} reference={reference} />
          </p>
          <GraphPanel model={model} lang={lang} title={name} fileParts={fileParts} height={140} compact />
        </>
      )}
      <a className="card-link" href={href}>
        {t('dashboard.open', { quantity: name })}
      </a>
    </section>
  );
}

function Extras({
  data,
  loading,
  lang,
}: {
  data: TenancyDashboard | undefined;
  loading: boolean;
  lang: Language;
}) {
  const { t } = useTranslation(['consumption', 'domain']);
  const grams =
    data?.co2.reduce<number | null>((sum, k) => (k.total === null ? sum : (sum ?? 0) + k.total), null) ??
    null;
  const rated = (data?.rating ?? [])
    .map((k) => ({
      quantity: k.quantityDescriptor.quantity,
      rating:
        k.total != null && k.propertyComparison != null
          ? consumptionRating(k.total, k.propertyComparison)
          : null,
    }))
    .filter((r) => r.rating !== null);
  return (
    <div className="dashboard-extras">
      <section className="card" aria-labelledby="rating-title">
        <h2 id="rating-title" className="card-heading">
          {t('domain:ratings.title')}
        </h2>
        <p className="muted small">{t('domain:ratings.description')}</p>
        {loading ? (
          <div className="placeholder-line" />
        ) : rated.length === 0 ? (
          <p>{t('domain:ratings.unavailable')}</p>
        ) : (
          <ul className="rating-list" data-testid="rating-list">
            {rated.map((r) => (
              <li key={r.quantity}>
                <span className={`rating rating-${r.rating === 'A+' ? 'Aplus' : r.rating}`}>{r.rating}</span>
                <span>
                  {t(quantityKey(r.quantity))}: {r.rating && t(`domain:${ratingKey(r.rating)}`)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="co2-title">
        <h2 id="co2-title" className="card-heading">
          {t('dashboard.co2_title')}
        </h2>
        {loading ? (
          <div className="placeholder-line" />
        ) : grams === null ? (
          <NoData inline />
        ) : (
          <>
            <p data-testid="co2-total">{t('dashboard.co2_total', { value: formatCo2(grams, lang) })}</p>
            <FunFacts grams={grams} limit={1} />
          </>
        )}
      </section>
    </div>
  );
}

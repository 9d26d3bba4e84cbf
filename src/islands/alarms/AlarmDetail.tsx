/** The alarm detail (SPEC §2 alarms/{alarmId}): its rule and state, values against the limit, firing history. */
import { navigate } from 'astro:transitions/client';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { lower } from '../../client/i18nKeys.ts';
import { useDeleteAlarm, useToggleAlarm } from '../../client/operations/alarmMutations.ts';
import { useAlarm, useAlarmValues } from '../../client/operations/alarmQueries.ts';
import { alarmReason } from '../../lib/alarmReasons.ts';
import { errorMessageKey, serverErrorCode } from '../../lib/errors.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { quantityKey } from '../../lib/quantities.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useDocumentTitle } from '../shared/useDocumentTitle.ts';
import { Modal } from '../shell/Modal.tsx';
import { AlarmChart } from './AlarmChart.tsx';
import { amount, graphHref, periodLabel, ruleText, useTenancyInView } from './shared.ts';
import './alarms.css';

const COUNTS = { DAY: 14, WEEK: 12, MONTH: 12, YEAR: 5 } as const;

/** The island. */
export default function AlarmDetail({ lang, alarmId }: { lang: Language; alarmId: string }) {
  return (
    <Providers lang={lang}>
      <Detail alarmId={alarmId} />
    </Providers>
  );
}

function Detail({ alarmId }: { alarmId: string }) {
  const { t, i18n } = useTranslation(['alarms', 'domain']);
  const lang = parseLanguage(i18n.language) ?? 'en';
  const tenancyId = useTenancyInView();
  const alarm = useAlarm(tenancyId, alarmId);
  const a = alarm.data;
  const values = useAlarmValues(
    a && tenancyId
      ? { tenancyId, type: a.type, quantity: a.quantity, frequency: a.frequency, count: COUNTS[a.frequency] }
      : null,
  );
  const remove = useDeleteAlarm(tenancyId ?? '');
  const toggle = useToggleAlarm(tenancyId ?? '');
  const [confirming, setConfirming] = useState(false);
  const name = a
    ? `${t(quantityKey(a.quantity))} · ${t(`domain:alarms.frequency.${lower(a.frequency)}`)}`
    : null;
  useDocumentTitle(name ? t('detail.page_title', { name }) : null);

  if (!tenancyId) return null;
  const base = `/t/${encodeURIComponent(tenancyId)}/alarms`;
  if (alarm.isPending) return <Spinner label={t('list.loading')} />;
  if (alarm.isError || !a)
    return (
      <div className="state-box" role="alert">
        <p>{t('detail.not_found')}</p>
        <a href={base}>{t('detail.back')}</a>
      </div>
    );

  const fail = (err: unknown) =>
    toast.error(`${t('detail.failed')} ${t(`domain:${errorMessageKey(serverErrorCode(err))}`)}`);
  const quantityLabel = t(quantityKey(a.quantity));
  const fired = a.history.filter((h) => h.state === 'FIRED');

  return (
    <>
      <section className="card" aria-labelledby="alarm-title">
        <header className="card-header">
          <div>
            <h2 id="alarm-title">{name}</h2>
            <p className="card-subtitle">
              {t(`domain:alarms.type.${lower(a.type)}`)}: {ruleText(a, lang, t)}
            </p>
          </div>
          <span className={`alarm-status status-${a.status.toLowerCase()}`} data-testid="alarm-status">
            {t(`status.${a.status}`)}
            {a.status === 'TRIGGERED' && a.lastFired && (
              <span className="alarm-when">
                {' '}
                {t('list.triggered_for', {
                  period: periodLabel(a.lastFired.periodStart, a.frequency, lang, t),
                })}
              </span>
            )}
          </span>
        </header>
        <div className="alarm-toolbar">
          <a className="button secondary" href={`${base}/${a.id}/edit?step=1`}>
            {t('detail.edit')}
          </a>
          <button
            type="button"
            className="button secondary"
            disabled={toggle.isPending}
            onClick={() => toggle.mutate(a, { onSuccess: () => void alarm.refetch(), onError: fail })}
          >
            {a.enabled ? t('detail.turn_off') : t('detail.turn_on')}
          </button>
          <button type="button" className="button ghost" onClick={() => setConfirming(true)}>
            {t('detail.delete')}
          </button>
          <Modal
            open={confirming}
            onClose={() => setConfirming(false)}
            title={t('detail.delete_confirm')}
            closeLabel={t('detail.close')}
          >
            <p>{t('detail.delete_explained')}</p>
            <div className="alarm-toolbar">
              <button
                type="button"
                className="button danger"
                disabled={remove.isPending}
                onClick={() =>
                  remove.mutate(a.id, {
                    onSuccess: () => {
                      setConfirming(false);
                      toast.success(t('detail.deleted'));
                      void navigate(base).then(() => remove.forget(a.id));
                    },
                    onError: fail,
                  })
                }
              >
                {t('detail.delete_yes')}
              </button>
              <button type="button" className="button ghost" onClick={() => setConfirming(false)}>
                {t('wizard.cancel')}
              </button>
            </div>
          </Modal>
        </div>
      </section>

      <section className="card" aria-labelledby="alarm-graph-title">
        <h2 id="alarm-graph-title">{t('detail.graph_title')}</h2>
        {values.isPending ? (
          <Spinner label={t('list.loading')} />
        ) : values.data?.some((v) => v.value !== null) ? (
          <AlarmChart
            rule={a}
            values={values.data}
            fired={fired.map((h) => h.periodStart)}
            lang={lang}
            title={t('detail.graph_label', { quantity: quantityLabel })}
          />
        ) : (
          <p>{t('domain:errors.no_data')}</p>
        )}
      </section>

      <section className="card" aria-labelledby="alarm-history-title">
        <h2 id="alarm-history-title">{t('detail.history')}</h2>
        {fired.length === 0 ? (
          <p>{t('detail.history_empty')}</p>
        ) : (
          <ul className="history-list">
            {fired.map((h) => (
              <li key={h.periodStart}>
                <a href={graphHref(tenancyId, a.quantity, h.periodStart, h.periodEnd)}>
                  {periodLabel(h.periodStart, a.frequency, lang, t)}
                </a>
                : {amount(h.value, a.quantity, lang)} · {t(`reason.${alarmReason(h.reason)}`)}
              </li>
            ))}
          </ul>
        )}
      </section>
      <p>
        <a href={base}>{t('detail.back')}</a>
      </p>
    </>
  );
}

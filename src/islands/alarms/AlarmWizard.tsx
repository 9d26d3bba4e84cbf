/**
 * The alarm wizard (SPEC §2 alarms/new-alarm?step=N, and alarms/{id}/edit): the alarmWizard machine drives the
 * steps (wired in wizard/useAlarmWizard.ts); the step lives in ?step=N, so the browser's back and forward move
 * between steps. Each step is a component of its own in wizard/; this file holds the frame around them.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type Alarm, useAlarm } from '../../client/operations/alarmQueries.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import { ALARM_STEPS } from '../../machines/alarmWizard.machine.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useDocumentTitle } from '../shared/useDocumentTitle.ts';
import { useTenancyInView } from './shared.ts';
import { FrequencyStep } from './wizard/FrequencyStep.tsx';
import { QuantityStep } from './wizard/QuantityStep.tsx';
import { ReviewStep } from './wizard/ReviewStep.tsx';
import { ThresholdStep } from './wizard/ThresholdStep.tsx';
import { TypeStep } from './wizard/TypeStep.tsx';
import { useAlarmWizard } from './wizard/useAlarmWizard.ts';
import './alarms.css';

/** The island: a new alarm, or the edit of `alarmId`. */
export default function AlarmWizard({ lang, alarmId }: { lang: Language; alarmId?: string }) {
  return (
    <Providers lang={lang}>
      <Loader alarmId={alarmId ?? null} />
    </Providers>
  );
}

function Loader({ alarmId }: { alarmId: string | null }) {
  const { t } = useTranslation('alarms');
  const tenancyId = useTenancyInView();
  const alarm = useAlarm(alarmId ? tenancyId : null, alarmId);
  if (!tenancyId) return null;
  if (alarmId && alarm.isPending) return <Spinner label={t('list.loading')} />;
  if (alarmId && alarm.isError)
    return (
      <div className="state-box" role="alert">
        <p>{t('detail.not_found')}</p>
      </div>
    );
  return <Wizard tenancyId={tenancyId} alarm={alarm.data ?? null} />;
}

function Wizard({ tenancyId, alarm }: { tenancyId: string; alarm: Alarm | null }) {
  const { t, i18n } = useTranslation(['alarms', 'domain']);
  const lang = parseLanguage(i18n.language) ?? 'en';
  const base = `/t/${encodeURIComponent(tenancyId)}/alarms`;
  const { state, send, stepName, step, leakRule, setLeakRule } = useAlarmWizard(tenancyId, alarm, base);
  const { draft } = state.context;
  const headingRef = useRef<HTMLHeadingElement>(null);
  useDocumentTitle(
    t('wizard.page_title', {
      title: t(alarm ? 'wizard.title_edit' : 'wizard.title_new'),
      step,
      total: ALARM_STEPS.length,
      name: t(`domain:alarms.step.${stepName ?? 'review'}`),
    }),
  );

  // Move focus to the step's heading when the step changes, for keyboard and screen-reader users.
  const lastFocused = useRef(step);
  useEffect(() => {
    if (lastFocused.current !== step) headingRef.current?.focus();
    lastFocused.current = step;
  });

  let body: React.ReactNode = null;
  if (stepName === 'type') body = <TypeStep draft={draft} send={send} />;
  else if (stepName === 'quantity' && draft.type)
    body = <QuantityStep tenancyId={tenancyId} type={draft.type} draft={draft} send={send} />;
  else if (stepName === 'frequency') body = <FrequencyStep draft={draft} send={send} />;
  else if (stepName === 'threshold')
    body = (
      <ThresholdStep
        tenancyId={tenancyId}
        context={state.context}
        send={send}
        leakRule={leakRule}
        setLeakRule={setLeakRule}
        lang={lang}
      />
    );
  else if (stepName === 'review' || state.matches('submitting'))
    body = <ReviewStep context={state.context} leakRule={leakRule} lang={lang} />;

  const submitting = state.matches('submitting') || state.status === 'done';
  return (
    <section className="card wizard" aria-labelledby="wizard-step-title">
      <p className="muted">{t('wizard.step_of', { step, total: ALARM_STEPS.length })}</p>
      <h2 id="wizard-step-title" tabIndex={-1} ref={headingRef}>
        {t(`domain:alarms.step.${stepName ?? 'review'}`)}
      </h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (stepName === 'review') send({ type: 'wizard.submit' });
          else send({ type: 'wizard.next' });
        }}
      >
        {body}
        <div className="wizard-actions">
          {step > 1 && (
            <button
              type="button"
              className="button secondary"
              onClick={() => send({ type: 'wizard.back' })}
              disabled={submitting}
            >
              {t('wizard.back')}
            </button>
          )}
          {stepName === 'review' || submitting ? (
            <button type="submit" className="button primary" disabled={submitting}>
              {submitting ? t('wizard.saving') : t('wizard.save')}
            </button>
          ) : (
            <button type="submit" className="button primary" disabled={!state.can({ type: 'wizard.next' })}>
              {t('wizard.next')}
            </button>
          )}
          <a className="button ghost" href={alarm ? `${base}/${alarm.id}` : base}>
            {t('wizard.cancel')}
          </a>
        </div>
      </form>
    </section>
  );
}

/**
 * The alarm wizard (SPEC §2 alarms/new-alarm?step=N, and alarms/{id}/edit): the alarmWizard machine drives the
 * steps; the step lives in ?step=N, so the browser's back and forward move between steps.
 */
import { navigate } from 'astro:transitions/client';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { saveAlarm } from '../../client/operations/alarmMutations.ts';
import {
  type Alarm,
  type AlarmFrequencyName,
  type AlarmTypeName,
  useAlarm,
  useAlarmValues,
} from '../../client/operations/alarmQueries.ts';
import { errorMessageKey } from '../../lib/errors.ts';
import { type Language, parseLanguage } from '../../lib/languages.ts';
import {
  ALARM_FREQUENCIES,
  ALARM_STEPS,
  ALARM_TYPES,
  type AlarmDraft,
  type AlarmType,
  alarmWizardMachine,
  parseStepParam,
  quantitiesForAlarmType,
} from '../../machines/alarmWizard.machine.ts';
import { Providers } from '../shared/Providers.tsx';
import { Spinner } from '../shared/Spinner.tsx';
import { useDocumentTitle } from '../shared/useDocumentTitle.ts';
import { amount, periodLabel, unitOf, useOwnQuantities, useTenancyInView } from './shared.ts';
import './alarms.css';

const WATER = ['cold-water-volume', 'hot-water-volume', 'total-water-volume'];

/** The island: a new alarm, or the edit of `alarmId`. */
export default function AlarmWizard({ lang, alarmId }: { lang: Language; alarmId?: string }) {
  return (
    <Providers lang={lang}>
      <Loader alarmId={alarmId ?? null} />
    </Providers>
  );
}

function draftOf(alarm: Alarm): Partial<AlarmDraft> {
  return {
    type: alarm.type.toLowerCase() as AlarmType,
    quantity: alarm.quantity as AlarmDraft['quantity'],
    frequency: alarm.frequency.toLowerCase() as AlarmDraft['frequency'],
    threshold: alarm.threshold,
    minimum: alarm.minimum,
    maximum: alarm.maximum,
  };
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

function currentStepParam(): number | null {
  return parseStepParam(new URLSearchParams(window.location.search).get('step'));
}

function Wizard({ tenancyId, alarm }: { tenancyId: string; alarm: Alarm | null }) {
  const { t, i18n } = useTranslation(['alarms', 'domain']);
  const lang = parseLanguage(i18n.language) ?? 'en';
  const base = `/t/${encodeURIComponent(tenancyId)}/alarms`;
  const own = useOwnQuantities(tenancyId);
  const [leakRule, setLeakRule] = useState(alarm?.leakRule ?? false);
  const leakRef = useRef(leakRule);
  leakRef.current = leakRule;
  const savedId = useRef<string | null>(null);
  const firstStep = useRef(true);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const machine = useMemo(
    () =>
      alarmWizardMachine.provide({
        actions: {
          showStep: (_, { step }) => {
            if (currentStepParam() === step && !firstStep.current) return;
            const url = new URL(window.location.href);
            url.searchParams.set('step', String(step));
            // The opening step replaces the entry; later steps push one, so back and forward work.
            if (firstStep.current) window.history.replaceState(null, '', url);
            else window.history.pushState(null, '', url);
            firstStep.current = false;
          },
        },
        actors: {
          saveAlarm: fromPromise<unknown, AlarmDraft>(async ({ input }) => {
            const water = input.type === 'zero_consumption' && WATER.includes(input.quantity ?? '');
            const saved = await saveAlarm(
              tenancyId,
              {
                type: input.type!.toUpperCase() as AlarmTypeName,
                quantity: input.quantity!,
                frequency: input.frequency!.toUpperCase() as AlarmFrequencyName,
                threshold: input.type === 'indoor_climate' ? null : input.threshold,
                minimum: input.type === 'indoor_climate' ? input.minimum : null,
                maximum: input.type === 'indoor_climate' ? input.maximum : null,
                leakRule: water && leakRef.current,
                enabled: alarm?.enabled ?? true,
              },
              alarm?.id,
            );
            savedId.current = saved.id;
            return saved;
          }),
        },
      }),
    [tenancyId, alarm],
  );
  const actor = useActorRef(machine, {
    input: {
      step: new URLSearchParams(window.location.search).get('step') ?? undefined,
      alarm: alarm ? draftOf(alarm) : undefined,
    },
  });
  const state = useSelector(actor, (s) => s);
  const { draft } = state.context;
  const stepName =
    typeof state.value === 'object' ? (state.value as { steps: (typeof ALARM_STEPS)[number] }).steps : null;
  const step = stepName ? ALARM_STEPS.indexOf(stepName) + 1 : ALARM_STEPS.length;
  useDocumentTitle(
    t('wizard.page_title', {
      title: t(alarm ? 'wizard.title_edit' : 'wizard.title_new'),
      step,
      total: ALARM_STEPS.length,
      name: t(`domain:alarms.step.${stepName ?? 'review'}`),
    }),
  );

  // Browser back and forward: open the step in the URL when it is reachable, else put the URL right.
  useEffect(() => {
    const onPop = () => {
      const wanted = currentStepParam();
      if (wanted !== null) actor.send({ type: 'wizard.goto', step: wanted });
      const snapshot = actor.getSnapshot();
      const name = typeof snapshot.value === 'object' ? (snapshot.value as { steps: string }).steps : null;
      const now = name ? ALARM_STEPS.indexOf(name as (typeof ALARM_STEPS)[number]) + 1 : null;
      if (now !== null && now !== wanted) {
        const url = new URL(window.location.href);
        url.searchParams.set('step', String(now));
        window.history.replaceState(null, '', url);
      }
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [actor]);

  useEffect(() => {
    if (state.status === 'done' && savedId.current) {
      toast.success(t('wizard.saved'));
      void navigate(`${base}/${savedId.current}`);
    }
  }, [state.status, base, t]);

  // Move focus to the step's heading when the step changes, for keyboard and screen-reader users.
  const lastFocused = useRef(step);
  useEffect(() => {
    if (lastFocused.current !== step) headingRef.current?.focus();
    lastFocused.current = step;
  });

  const hintInput =
    draft.type && draft.quantity && draft.frequency && step === 4
      ? {
          tenancyId,
          type: draft.type.toUpperCase() as AlarmTypeName,
          quantity: draft.quantity,
          frequency: draft.frequency.toUpperCase() as AlarmFrequencyName,
          count: 1,
        }
      : null;
  const hint = useAlarmValues(hintInput);

  const send = actor.send;
  const next = () => send({ type: 'wizard.next' });
  const back = () => send({ type: 'wizard.back' });
  const unit = unitOf(draft.quantity, lang);
  const ids = { threshold: useId(), minimum: useId(), maximum: useId(), error: useId() };

  let body: React.ReactNode = null;
  if (stepName === 'type') {
    body = (
      <fieldset>
        <legend>{t('wizard.type_legend')}</legend>
        <div className="choice-list">
          {ALARM_TYPES.map((type) => (
            <label key={type} className="choice">
              <input
                type="radio"
                name="alarm-type"
                value={type}
                checked={draft.type === type}
                onChange={() => send({ type: 'wizard.type', alarmType: type })}
              />
              <span>
                {t(`domain:alarms.type.${type}`)}
                <small>{t(`wizard.type_help.${type}`)}</small>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    );
  } else if (stepName === 'quantity' && draft.type) {
    const options = quantitiesForAlarmType(draft.type).filter((q) => own.includes(q));
    body = (
      <fieldset>
        <legend>{t('wizard.quantity_legend')}</legend>
        {options.length === 0 ? (
          <p>{t('wizard.no_quantities')}</p>
        ) : (
          <div className="choice-list">
            {options.map((q) => (
              <label key={q} className="choice">
                <input
                  type="radio"
                  name="alarm-quantity"
                  value={q}
                  checked={draft.quantity === q}
                  onChange={() => send({ type: 'wizard.quantity', quantity: q })}
                />
                <span>{t(`domain:quantities.${q}`)}</span>
              </label>
            ))}
          </div>
        )}
      </fieldset>
    );
  } else if (stepName === 'frequency') {
    body = (
      <fieldset>
        <legend>{t('wizard.frequency_legend')}</legend>
        <p className="muted">{t('wizard.frequency_help')}</p>
        <div className="choice-list">
          {ALARM_FREQUENCIES.map((f) => (
            <label key={f} className="choice">
              <input
                type="radio"
                name="alarm-frequency"
                value={f}
                checked={draft.frequency === f}
                onChange={() => send({ type: 'wizard.frequency', frequency: f })}
              />
              <span>{t(`domain:alarms.frequency.${f}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
    );
  } else if (stepName === 'threshold') {
    const error = state.context.thresholdError;
    const last = hint.data?.[0];
    const hintText = last
      ? last.value === null
        ? t('wizard.hint_none')
        : t('wizard.hint', {
            period: periodLabel(last.periodStart, draft.frequency ?? 'day', lang, t),
            value: amount(last.value, draft.quantity, lang),
          })
      : '';
    const invalid = error !== null;
    const described = invalid ? ids.error : undefined;
    body = (
      <fieldset>
        <legend>{t('domain:alarms.step.threshold')}</legend>
        {draft.type === 'zero_consumption' && (
          <>
            <p>{t('domain:alarms.zero_threshold_fixed')}</p>
            {WATER.includes(draft.quantity ?? '') && (
              <label className="choice">
                <input type="checkbox" checked={leakRule} onChange={(e) => setLeakRule(e.target.checked)} />
                <span>{t('wizard.leak_rule')}</span>
              </label>
            )}
          </>
        )}
        {(draft.type === 'threshold' || draft.type === 'comparison') && (
          <div className="field">
            <label className="field-label" htmlFor={ids.threshold}>
              {draft.type === 'comparison'
                ? t('wizard.percent_label')
                : t('wizard.threshold_label', { unit })}
            </label>
            <input
              id={ids.threshold}
              inputMode="decimal"
              value={state.context.thresholdText}
              aria-invalid={invalid}
              aria-describedby={described}
              onChange={(e) => send({ type: 'wizard.threshold', value: e.target.value })}
            />
          </div>
        )}
        {draft.type === 'indoor_climate' && (
          <>
            <div className="field">
              <label className="field-label" htmlFor={ids.minimum}>
                {t('wizard.minimum_label', { unit })}
              </label>
              <input
                id={ids.minimum}
                inputMode="decimal"
                value={state.context.minimumText}
                aria-invalid={invalid}
                aria-describedby={described}
                onChange={(e) => send({ type: 'wizard.minimum', value: e.target.value })}
              />
            </div>
            <div className="field">
              <label className="field-label" htmlFor={ids.maximum}>
                {t('wizard.maximum_label', { unit })}
              </label>
              <input
                id={ids.maximum}
                inputMode="decimal"
                value={state.context.maximumText}
                aria-invalid={invalid}
                aria-describedby={described}
                onChange={(e) => send({ type: 'wizard.maximum', value: e.target.value })}
              />
            </div>
          </>
        )}
        {hintText && (
          <p className="muted" data-testid="threshold-hint">
            {hintText}
          </p>
        )}
        {error && (
          <p className="field-error" id={ids.error} role="alert">
            {t(`wizard.${error}`)}
          </p>
        )}
      </fieldset>
    );
  } else if (stepName === 'review' || state.matches('submitting')) {
    const limit =
      draft.type === 'indoor_climate'
        ? [
            draft.minimum !== null
              ? `${t('wizard.minimum')}: ${amount(draft.minimum, draft.quantity, lang)}`
              : null,
            draft.maximum !== null
              ? `${t('wizard.maximum')}: ${amount(draft.maximum, draft.quantity, lang)}`
              : null,
          ]
            .filter(Boolean)
            .join(', ')
        : draft.type === 'comparison'
          ? `${draft.threshold ?? ''} %`
          : amount(draft.threshold, draft.quantity, lang);
    body = (
      <>
        <dl className="review-list" data-testid="alarm-review">
          <dt>{t('domain:alarms.step.type')}</dt>
          <dd>{draft.type && t(`domain:alarms.type.${draft.type}`)}</dd>
          <dt>{t('domain:alarms.step.quantity')}</dt>
          <dd>{draft.quantity && t(`domain:quantities.${draft.quantity}`)}</dd>
          <dt>{t('domain:alarms.step.frequency')}</dt>
          <dd>{draft.frequency && t(`domain:alarms.frequency.${draft.frequency}`)}</dd>
          <dt>{t('domain:alarms.step.threshold')}</dt>
          <dd>
            {limit}
            {draft.type === 'zero_consumption' && leakRule && WATER.includes(draft.quantity ?? '')
              ? ` · ${t('wizard.leak_short')}`
              : ''}
          </dd>
        </dl>
        {state.context.serverError && (
          <p className="field-error" role="alert">
            {t('wizard.save_failed')} {t(`domain:${errorMessageKey(state.context.serverError)}`)}
          </p>
        )}
      </>
    );
  }

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
          else next();
        }}
      >
        {body}
        <div className="wizard-actions">
          {step > 1 && (
            <button type="button" className="button secondary" onClick={back} disabled={submitting}>
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

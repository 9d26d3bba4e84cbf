/**
 * The alarm wizard's machine wiring: alarmWizardMachine with the step kept in ?step=N (the opening step replaces
 * the history entry, later ones push one, so the browser's back and forward move between steps), saving through
 * the API, and on success a toast and the alarm's page.
 */
import { navigate } from 'astro:transitions/client';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { type ActorRefFrom, fromPromise, type SnapshotFrom } from 'xstate';
import { saveAlarm } from '../../../client/operations/alarmMutations.ts';
import type { Alarm } from '../../../client/operations/alarmQueries.ts';
import {
  ALARM_STEPS,
  type AlarmDraft,
  type AlarmStep,
  alarmWizardMachine,
  parseStepParam,
} from '../../../machines/alarmWizard.machine.ts';
import { alarmInputOf, draftOf } from './alarmDraft.ts';

/** Sends an event to the wizard's machine. */
export type WizardSend = ActorRefFrom<typeof alarmWizardMachine>['send'];
/** The wizard machine's state. */
export type WizardSnapshot = SnapshotFrom<typeof alarmWizardMachine>;

function currentStepParam(): number | null {
  return parseStepParam(new URLSearchParams(window.location.search).get('step'));
}

/** The step a snapshot is on, by name; null once it has left the steps (submitting, done). */
function stepNameOf(snapshot: WizardSnapshot): AlarmStep | null {
  return typeof snapshot.value === 'object' ? (snapshot.value as { steps: AlarmStep }).steps : null;
}

/** The running wizard for a new alarm (`alarm` null) or the edit of `alarm`, on the tenancy's alarms at `base`. */
export function useAlarmWizard(tenancyId: string, alarm: Alarm | null, base: string) {
  const { t, i18n } = useTranslation('alarms');
  // The leak rule is a plain checkbox outside the machine; the save reads its latest value.
  const [leakRule, setLeakRule] = useState(alarm?.leakRule ?? false);
  const leakRef = useRef(leakRule);
  leakRef.current = leakRule;
  const savedId = useRef<string | null>(null);
  const firstStep = useRef(true);

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
            const saved = await saveAlarm(
              tenancyId,
              alarmInputOf(input, leakRef.current, alarm?.enabled ?? true),
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
      // Danish and Norwegian write 12,5: limits are read and shown that way.
      decimalComma: i18n.language === 'da' || i18n.language === 'nb',
    },
  });
  const state = useSelector(actor, (s) => s);
  const stepName = stepNameOf(state);
  const step = stepName ? ALARM_STEPS.indexOf(stepName) + 1 : ALARM_STEPS.length;

  // Browser back and forward: open the step in the URL when it is reachable, else put the URL right.
  useEffect(() => {
    const onPop = () => {
      const wanted = currentStepParam();
      if (wanted !== null) actor.send({ type: 'wizard.goto', step: wanted });
      const name = stepNameOf(actor.getSnapshot());
      const now = name ? ALARM_STEPS.indexOf(name) + 1 : null;
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

  return { state, send: actor.send, stepName, step, leakRule, setLeakRule };
}

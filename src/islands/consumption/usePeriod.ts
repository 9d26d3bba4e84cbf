/** The period machine of one page, persisted under SPEC's storage keys, plus the resolution the user picked. */
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { browserStorage } from '../../client/storage.ts';
import {
  type Resolution,
  resolutionOfSpan,
  type ServerResolution,
  serverResolution,
  todayInCopenhagen,
} from '../../lib/periods.ts';
import { resolutionChoices } from '../../lib/resolutionChoices.ts';
import {
  type PeriodPage,
  periodMachine,
  readStoredPeriod,
  writePersistedPeriod,
} from '../../machines/period.machine.ts';

const persistingMachine = periodMachine.provide({
  actions: { persist: (_, params) => writePersistedPeriod(browserStorage(), params) },
});

/** The page's period actor and what the page reads from it. */
export function usePeriod(page: PeriodPage, hasHourlyData: boolean) {
  const { t, i18n } = useTranslation('domain');
  const actor = useActorRef(persistingMachine, {
    input: {
      today: todayInCopenhagen().toString(),
      language: i18n.language,
      stored: readStoredPeriod(browserStorage()),
      page,
      hasHourlyData,
    },
  });
  const period = useSelector(actor, (s) => s.context.period);
  const spanType = useSelector(actor, (s) => s.context.spanType);
  const comparison = useSelector(actor, (s) => s.context.comparison);
  const label = useSelector(actor, (s) => s.context.label);

  useEffect(() => {
    if (actor.getSnapshot().context.hasHourlyData !== hasHourlyData)
      actor.send({ type: 'hourly.change', hasHourlyData });
  }, [actor, hasHourlyData]);
  useEffect(() => {
    actor.send({ type: 'language.change', language: i18n.language as never });
  }, [actor, i18n.language]);
  // A link from a notification or alarm names its period (?startDate=…&endDate=…): show it, then drop the
  // parameters so a reload keeps whatever the user picks next.
  useEffect(() => {
    const url = new URL(window.location.href);
    const startDate = url.searchParams.get('startDate');
    const endDate = url.searchParams.get('endDate');
    const isDate = (x: string | null): x is string => x !== null && /^\d{4}-\d{2}-\d{2}$/.test(x);
    if (!isDate(startDate) || !isDate(endDate)) return;
    // A custom range is taken only while choosing one: open the choice, apply the link's range, and close the
    // choice again when the range was refused (a reversed or impossible date).
    actor.send({ type: 'period.customOpen' });
    actor.send({ type: 'period.custom', startDate, endDate });
    if (actor.getSnapshot().matches('choosingCustom')) actor.send({ type: 'period.customCancel' });
    url.searchParams.delete('startDate');
    url.searchParams.delete('endDate');
    window.history.replaceState(window.history.state, '', url);
  }, [actor]);

  // The user's pick holds while it makes sense for the period; otherwise the span-type rule decides.
  const [picked, setPicked] = useState<Resolution | null>(null);
  const ruled = resolutionOfSpan(spanType);
  const choices = useMemo(
    () => resolutionChoices(period, hasHourlyData, ruled),
    [period, hasHourlyData, ruled],
  );
  const resolution: Resolution = picked && choices.includes(picked) ? picked : ruled;
  const server: ServerResolution = serverResolution(resolution);
  return {
    actor,
    period,
    comparison,
    resolution,
    serverResolution: server,
    choices,
    pickResolution: setPicked,
    /** The period in words ("Last 30 days"), for the period bar and the names of what shows it. */
    periodText: t(label.key, label.values),
  };
}

/** What usePeriod returns. */
export type PeriodState = ReturnType<typeof usePeriod>;

import type { Temporal } from 'temporal-polyfill';
import { assertEvent, assign, setup } from 'xstate';
import {
  defaultPeriod,
  isPeriodPreset,
  type Period,
  type PeriodKind,
  type PeriodPreset,
  parseIsoDate,
  parseStoredPeriod,
  periodDates,
  periodKind,
  presetOf,
  presetPeriod,
  type SpanType,
  spanType,
  stepPeriod,
  validatePeriod,
} from '../lib/periods.ts';

/** What the period is compared with (SPEC §3). */
export type Comparison = 'property' | 'last_period';
/** The kind of page the period picker sits on; room and meter pages compare with the last period. */
export type PeriodPage = 'default' | 'room' | 'meter';

/** Storage keys (SPEC §3 stored client state) the app persists the period under. */
export const PERIOD_STORAGE_KEYS = {
  period: 'selectedPeriod',
  spanType: 'selectedSpanType',
  comparison: 'selectedComparison',
} as const;

/** Reads a stored comparison; null when garbled. */
export function parseComparison(x: unknown): Comparison | null {
  return x === 'property' || x === 'last_period' ? x : null;
}

/** The comparison a page starts with: last_period on room and meter pages, else the stored one or property. */
export function initialComparison(page: PeriodPage, stored: unknown): Comparison {
  if (page === 'room' || page === 'meter') return 'last_period';
  return parseComparison(stored) ?? 'property';
}

/** What the app persists after every change. */
export interface PersistedPeriod {
  period: Period;
  spanType: SpanType;
  comparison: Comparison;
}

interface PeriodContext {
  period: Period;
  preset: PeriodPreset;
  comparison: Comparison;
  hasHourlyData: boolean;
  /** Today in Europe/Copenhagen as an ISO date, given by the app so the machine stays pure. */
  today: string;
  spanType: SpanType;
  kind: PeriodKind;
  customError: 'period_invalid_date' | 'period_start_after_end' | null;
}

/** Input: what storage held (anything; garbled values fall back), today, the page, and hourly availability. */
export interface PeriodInput {
  today: string;
  stored?: { period?: unknown; comparison?: unknown };
  page?: PeriodPage;
  hasHourlyData?: boolean;
}

function derive(period: Period, hasHourlyData: boolean, today: Temporal.PlainDate) {
  return {
    spanType: spanType(period, hasHourlyData),
    kind: periodKind(period),
    preset: presetOf(period, today),
  };
}

function todayOf(context: { today: string }): Temporal.PlainDate {
  const today = parseIsoDate(context.today);
  if (!today) throw new Error(`period machine: today ${JSON.stringify(context.today)} is not an ISO date`);
  return today;
}

const persistAll = {
  type: 'persist',
  params: ({ context }: { context: PeriodContext }): PersistedPeriod => ({
    period: context.period,
    spanType: context.spanType,
    comparison: context.comparison,
  }),
} as const;

/** The selected period with preset, custom range, stepping and comparison; it derives span type and kind. */
export const periodMachine = setup({
  types: {
    context: {} as PeriodContext,
    input: {} as PeriodInput,
    events: {} as
      | { type: 'period.preset'; preset: PeriodPreset }
      | { type: 'period.customOpen' }
      | { type: 'period.customCancel' }
      | { type: 'period.custom'; startDate: string; endDate: string }
      | { type: 'period.previous' }
      | { type: 'period.next' }
      | { type: 'comparison.change'; comparison: Comparison }
      | { type: 'hourly.change'; hasHourlyData: boolean },
  },
  actions: {
    // Effect: the app writes PERIOD_STORAGE_KEYS; tests supply a spy.
    persist: (_, _params: PersistedPeriod) => {},
    applyPreset: assign(({ context, event }) => {
      assertEvent(event, 'period.preset');
      const period = presetPeriod(event.preset, todayOf(context));
      if (!period) return {};
      return { period, ...derive(period, context.hasHourlyData, todayOf(context)), preset: event.preset };
    }),
    applyCustom: assign(({ context, event }) => {
      assertEvent(event, 'period.custom');
      const period = { startDate: event.startDate, endDate: event.endDate };
      return { period, customError: null, ...derive(period, context.hasHourlyData, todayOf(context)) };
    }),
    rejectCustom: assign(({ event }) => {
      assertEvent(event, 'period.custom');
      return { customError: validatePeriod(event) };
    }),
    clearCustomError: assign({ customError: null }),
    step: assign(({ context }, params: { direction: 'previous' | 'next' }) => {
      const period = stepPeriod(context.period, params.direction);
      return { period, ...derive(period, context.hasHourlyData, todayOf(context)) };
    }),
    setComparison: assign(({ event }) => {
      assertEvent(event, 'comparison.change');
      return { comparison: event.comparison };
    }),
    setHourly: assign(({ context, event }) => {
      assertEvent(event, 'hourly.change');
      return { hasHourlyData: event.hasHourlyData, spanType: spanType(context.period, event.hasHourlyData) };
    }),
  },
  guards: {
    isCustomValid: ({ event }) => {
      assertEvent(event, 'period.custom');
      return validatePeriod(event) === null;
    },
    isChoosablePreset: ({ event }) => {
      assertEvent(event, 'period.preset');
      return isPeriodPreset(event.preset) && event.preset !== 'custom';
    },
    isCustomPreset: ({ event }) => {
      assertEvent(event, 'period.preset');
      return event.preset === 'custom';
    },
    isComparison: ({ event }) => {
      assertEvent(event, 'comparison.change');
      return parseComparison(event.comparison) !== null;
    },
    // The next period must start no later than today: there is nothing to show after it.
    canStepNext: ({ context }) => {
      const next = stepPeriod(context.period, 'next');
      return periodDates(next).start.toString() <= context.today;
    },
  },
}).createMachine({
  id: 'period',
  context: ({ input }) => {
    const today = parseIsoDate(input.today);
    if (!today)
      throw new Error(`period machine: input.today ${JSON.stringify(input.today)} is not an ISO date`);
    const hasHourlyData = input.hasHourlyData ?? false;
    const period = parseStoredPeriod(input.stored?.period) ?? defaultPeriod(today);
    return {
      period,
      comparison: initialComparison(input.page ?? 'default', input.stored?.comparison),
      hasHourlyData,
      today: today.toString(),
      customError: null,
      ...derive(period, hasHourlyData, today),
    };
  },
  initial: 'ready',
  on: {
    'comparison.change': { guard: 'isComparison', actions: ['setComparison', persistAll] },
    'hourly.change': { actions: ['setHourly', persistAll] },
  },
  states: {
    ready: {
      on: {
        'period.preset': [
          { guard: 'isCustomPreset', target: 'choosingCustom' },
          { guard: 'isChoosablePreset', actions: ['applyPreset', persistAll] },
        ],
        'period.customOpen': { target: 'choosingCustom' },
        'period.previous': { actions: [{ type: 'step', params: { direction: 'previous' } }, persistAll] },
        'period.next': {
          guard: 'canStepNext',
          actions: [{ type: 'step', params: { direction: 'next' } }, persistAll],
        },
      },
    },
    choosingCustom: {
      exit: 'clearCustomError',
      on: {
        'period.custom': [
          { guard: 'isCustomValid', target: 'ready', actions: ['applyCustom', persistAll] },
          { actions: 'rejectCustom' },
        ],
        'period.customCancel': { target: 'ready' },
        'period.preset': [
          { guard: 'isChoosablePreset', target: 'ready', actions: ['applyPreset', persistAll] },
        ],
      },
    },
  },
});

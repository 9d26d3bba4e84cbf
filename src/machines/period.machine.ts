import type { Temporal } from 'temporal-polyfill';
import { assertEvent, assign, setup } from 'xstate';
import { FALLBACK_LANGUAGE, type Language, parseLanguage } from '../lib/languages.ts';
import {
  defaultPeriod,
  isPeriodPreset,
  type Period,
  type PeriodKind,
  type PeriodLabel,
  type PeriodPreset,
  parseIsoDate,
  parseStoredPeriod,
  periodKind,
  periodLabel,
  presetOf,
  presetPeriod,
  type SpanType,
  type StepDirection,
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

/** The part of the Web Storage API the period needs; tests pass a Map-backed one. */
export type PeriodStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Writes the period, span type and comparison under PERIOD_STORAGE_KEYS; a full or blocked storage is ignored. */
export function writePersistedPeriod(storage: PeriodStorage, persisted: PersistedPeriod): void {
  try {
    storage.setItem(PERIOD_STORAGE_KEYS.period, JSON.stringify(persisted.period));
    storage.setItem(PERIOD_STORAGE_KEYS.spanType, persisted.spanType);
    storage.setItem(PERIOD_STORAGE_KEYS.comparison, persisted.comparison);
  } catch {
    // Losing the selection only costs the default period on the next visit.
  }
}

/**
 * Reads what PERIOD_STORAGE_KEYS hold, raw, for PeriodInput.stored; the machine parses it and falls back on garbled
 * values. The span type is not read back: it follows from the period and the hourly data.
 */
export function readStoredPeriod(storage: Pick<Storage, 'getItem'>): NonNullable<PeriodInput['stored']> {
  const get = (key: string): string | null => {
    try {
      return storage.getItem(key);
    } catch {
      return null;
    }
  };
  return { period: get(PERIOD_STORAGE_KEYS.period), comparison: get(PERIOD_STORAGE_KEYS.comparison) };
}

interface PeriodContext {
  period: Period;
  preset: PeriodPreset;
  comparison: Comparison;
  hasHourlyData: boolean;
  /** Today in Europe/Copenhagen as an ISO date, given by the app so the machine stays pure. */
  today: string;
  /** The interface language the label is worded in. */
  language: Language;
  spanType: SpanType;
  kind: PeriodKind;
  /** The period's label (SPEC §4) as an i18n key in the domain namespace with its values. */
  label: PeriodLabel;
  customError: 'period_invalid_date' | 'period_start_after_end' | null;
}

/** Input: what storage held (anything; garbled values fall back), today, the page, the language and hourly data. */
export interface PeriodInput {
  today: string;
  /** The interface language (any tag parseLanguage reads); English when missing or unsupported. */
  language?: unknown;
  stored?: { period?: unknown; comparison?: unknown };
  page?: PeriodPage;
  hasHourlyData?: boolean;
}

function derive(period: Period, hasHourlyData: boolean, today: Temporal.PlainDate, language: Language) {
  return {
    spanType: spanType(period, hasHourlyData),
    kind: periodKind(period),
    preset: presetOf(period, today),
    label: periodLabel(period, language, today),
  };
}

// context.today is input.today, checked once when the machine starts.
function todayOf(context: { today: unknown }): Temporal.PlainDate {
  const today = parseIsoDate(context.today);
  if (!today)
    throw new Error(`period machine: input.today ${JSON.stringify(context.today)} is not an ISO date`);
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

/** The selected period with preset, custom range, stepping and comparison; it derives span type, kind and label. */
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
      | { type: 'hourly.change'; hasHourlyData: boolean }
      | { type: 'language.change'; language: Language },
  },
  actions: {
    // Effect: the app writes PERIOD_STORAGE_KEYS; tests supply a spy.
    persist: (_, _params: PersistedPeriod) => {},
    applyPreset: assign(({ context, event }) => {
      assertEvent(event, 'period.preset');
      const today = todayOf(context);
      const period = presetPeriod(event.preset, today);
      if (!period) return {};
      return {
        period,
        ...derive(period, context.hasHourlyData, today, context.language),
        preset: event.preset,
      };
    }),
    applyCustom: assign(({ context, event }) => {
      assertEvent(event, 'period.custom');
      const period = { startDate: event.startDate, endDate: event.endDate };
      return {
        period,
        customError: null,
        ...derive(period, context.hasHourlyData, todayOf(context), context.language),
      };
    }),
    rejectCustom: assign(({ event }) => {
      assertEvent(event, 'period.custom');
      return { customError: validatePeriod(event) };
    }),
    clearCustomError: assign({ customError: null }),
    step: assign(({ context }, params: { direction: StepDirection }) => {
      const period = stepPeriod(context.period, params.direction);
      return { period, ...derive(period, context.hasHourlyData, todayOf(context), context.language) };
    }),
    setComparison: assign(({ event }) => {
      assertEvent(event, 'comparison.change');
      return { comparison: event.comparison };
    }),
    setLanguage: assign(({ context, event }) => {
      assertEvent(event, 'language.change');
      const language = parseLanguage(event.language) ?? context.language;
      return { language, label: periodLabel(context.period, language, todayOf(context)) };
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
    isLanguage: ({ event }) => {
      assertEvent(event, 'language.change');
      return parseLanguage(event.language) !== null;
    },
    isComparison: ({ event }) => {
      assertEvent(event, 'comparison.change');
      return parseComparison(event.comparison) !== null;
    },
    // The next period must start no later than today: there is nothing to show after it.
    canStepNext: ({ context }) => stepPeriod(context.period, 'next').startDate <= context.today,
  },
}).createMachine({
  id: 'period',
  context: ({ input }) => {
    const today = todayOf(input);
    const hasHourlyData = input.hasHourlyData ?? false;
    const language = parseLanguage(input.language) ?? FALLBACK_LANGUAGE;
    const period = parseStoredPeriod(input.stored?.period) ?? defaultPeriod(today);
    return {
      period,
      comparison: initialComparison(input.page ?? 'default', input.stored?.comparison),
      hasHourlyData,
      today: today.toString(),
      language,
      customError: null,
      ...derive(period, hasHourlyData, today, language),
    };
  },
  initial: 'ready',
  on: {
    'comparison.change': { guard: 'isComparison', actions: ['setComparison', persistAll] },
    'hourly.change': { actions: ['setHourly', persistAll] },
    // Only the wording changes; nothing is persisted (the language has its own storage key).
    'language.change': { guard: 'isLanguage', actions: 'setLanguage' },
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

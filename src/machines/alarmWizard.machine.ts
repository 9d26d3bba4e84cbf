import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { inLimitRange, limitRange } from '../lib/alarmLimits.ts';
import { type ServerErrorCode, serverErrorCode } from '../lib/errors.ts';
import { CONSUMPTION_QUANTITIES, INDOOR_CLIMATE_QUANTITIES, type QuantityId } from '../lib/quantities.ts';

/** Every alarm type of SPEC §3, in picker order. */
export const ALARM_TYPES = ['threshold', 'comparison', 'zero_consumption', 'indoor_climate'] as const;
/** An alarm type of SPEC §3. */
export type AlarmType = (typeof ALARM_TYPES)[number];
/** Every alarm frequency period of SPEC §3, in picker order. */
export const ALARM_FREQUENCIES = ['day', 'week', 'month', 'year'] as const;
/** An alarm frequency period of SPEC §3. */
type AlarmFrequency = (typeof ALARM_FREQUENCIES)[number];

/** The wizard steps in order; step N is shown as ?step=N (1-based). */
export const ALARM_STEPS = ['type', 'quantity', 'frequency', 'threshold', 'review'] as const;
/** A wizard step. */
export type AlarmStep = (typeof ALARM_STEPS)[number];

/** The alarm the wizard saves. Threshold for threshold/comparison/zero; minimum/maximum for indoor climate. */
export interface AlarmDraft {
  type: AlarmType | null;
  quantity: QuantityId | null;
  frequency: AlarmFrequency | null;
  /** Amount in the quantity's unit (threshold), percent increase (comparison), always 0 (zero consumption). */
  threshold: number | null;
  /** Indoor climate: alarm when below this (minimum). */
  minimum: number | null;
  /** Indoor climate: alarm when above this (maximum). */
  maximum: number | null;
}

/** The quantities an alarm of a type can watch. */
export function quantitiesForAlarmType(type: AlarmType): readonly QuantityId[] {
  return type === 'indoor_climate' ? INDOOR_CLIMATE_QUANTITIES : CONSUMPTION_QUANTITIES;
}

/**
 * Reads a number typed with a comma or a dot as the decimal mark; null for anything else (never NaN). With
 * `decimalComma` (Danish, Norwegian) "1.250,5" and "1 250,5" read as 1250.5; without it "1,250.5" does.
 */
export function parseDecimal(raw: string, decimalComma = false): number | null {
  let text = raw.trim().replace(/[\s\u00a0\u202f]/g, '');
  if (decimalComma && /^-?\d{1,3}(\.\d{3})+(,\d+)?$/.test(text)) text = text.replace(/\./g, '');
  if (!decimalComma && /^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) text = text.replace(/,/g, '');
  text = text.replace(',', '.');
  if (!/^-?\d+(\.\d+)?$|^-?\.\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** A stored limit as the user would type it: a decimal comma in Danish and Norwegian. */
function decimalText(n: number | null, decimalComma: boolean): string {
  if (n === null) return '';
  return decimalComma ? String(n).replace('.', ',') : String(n);
}

/** Why the threshold step cannot go on. */
export type ThresholdError = 'threshold_invalid' | 'climate_invalid' | 'threshold_bounds' | 'threshold_range';

/** Why the threshold step cannot go on, or null when it can. A limit outside limitRange is refused too. */
export function thresholdError(d: AlarmDraft): ThresholdError | null {
  if (d.type === 'zero_consumption') return d.threshold === 0 ? null : 'threshold_invalid';
  const range = limitRange(d.type ?? '', d.quantity);
  if (d.type === 'indoor_climate') {
    if (d.minimum === null && d.maximum === null) return 'climate_invalid';
    if ([d.minimum, d.maximum].some((x) => x !== null && !inLimitRange(x, range))) return 'threshold_range';
    if (d.minimum !== null && d.maximum !== null && d.minimum >= d.maximum) return 'threshold_bounds';
    return null;
  }
  if (d.threshold === null || d.threshold < 0) return 'threshold_invalid';
  return inLimitRange(d.threshold, range) ? null : 'threshold_range';
}

/** How many steps are complete: the furthest step (1-based) the user may open. */
export function furthestStep(d: AlarmDraft): number {
  if (!d.type) return 1;
  if (!d.quantity || !quantitiesForAlarmType(d.type).includes(d.quantity)) return 2;
  if (!d.frequency) return 3;
  if (thresholdError(d) !== null) return 4;
  return 5;
}

/** Reads ?step=N; null when it is not a whole step number. */
export function parseStepParam(x: unknown): number | null {
  const n = typeof x === 'number' ? x : typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : Number.NaN;
  return Number.isInteger(n) && n >= 1 && n <= ALARM_STEPS.length ? n : null;
}

const EMPTY: AlarmDraft = {
  type: null,
  quantity: null,
  frequency: null,
  threshold: null,
  minimum: null,
  maximum: null,
};

interface WizardContext {
  draft: AlarmDraft;
  thresholdText: string;
  minimumText: string;
  maximumText: string;
  /** Shown once the user tried to go on from the threshold step. */
  thresholdError: ThresholdError | null;
  serverError: ServerErrorCode | null;
  /** The step the URL asked for when the wizard opened. */
  requestedStep: number;
  /** The page's language writes decimals with a comma (da, nb): how limits are read and shown. */
  decimalComma: boolean;
}

type WizardEvent =
  | { type: 'wizard.type'; alarmType: AlarmType }
  | { type: 'wizard.quantity'; quantity: QuantityId }
  | { type: 'wizard.frequency'; frequency: AlarmFrequency }
  | { type: 'wizard.threshold'; value: string }
  | { type: 'wizard.minimum'; value: string }
  | { type: 'wizard.maximum'; value: string }
  | { type: 'wizard.next' }
  | { type: 'wizard.back' }
  | { type: 'wizard.goto'; step: number }
  | { type: 'wizard.submit' };

function targetOf(step: number): `#alarmWizard.steps.${AlarmStep}` {
  return `#alarmWizard.steps.${ALARM_STEPS[step - 1] ?? 'type'}`;
}

/** Stepped alarm creation and editing (SPEC §2 alarms/new-alarm?step=N, §3 alarm types, §5 zero threshold). */
export const alarmWizardMachine = setup({
  types: {
    context: {} as WizardContext,
    input: {} as { step?: unknown; alarm?: Partial<AlarmDraft>; decimalComma?: boolean } | undefined,
    events: {} as WizardEvent,
  },
  actors: {
    // Replaced by the app with .provide(); the placeholder fails loudly so a missing wiring is visible.
    saveAlarm: fromPromise<unknown, AlarmDraft>(async () => {
      throw new Error('saveAlarm is not provided');
    }),
  },
  actions: {
    // Effect: the app mirrors the step in ?step=N (push when it differs, so back and forward work).
    showStep: (_, _params: { step: number }) => {},
    setType: assign(({ context, event }) => {
      assertEvent(event, 'wizard.type');
      const draft: AlarmDraft = { ...context.draft, type: event.alarmType };
      if (draft.quantity && !quantitiesForAlarmType(event.alarmType).includes(draft.quantity))
        draft.quantity = null;
      // SPEC §5: a zero-consumption alarm's threshold is fixed at 0.
      if (event.alarmType === 'zero_consumption')
        return { draft: { ...draft, threshold: 0 }, thresholdText: '0' };
      if (context.draft.type === 'zero_consumption')
        return { draft: { ...draft, threshold: null }, thresholdText: '' };
      return { draft };
    }),
    setQuantity: assign(({ context, event }) => {
      assertEvent(event, 'wizard.quantity');
      return { draft: { ...context.draft, quantity: event.quantity } };
    }),
    setFrequency: assign(({ context, event }) => {
      assertEvent(event, 'wizard.frequency');
      return { draft: { ...context.draft, frequency: event.frequency } };
    }),
    setThreshold: assign(({ context, event }) => {
      assertEvent(event, 'wizard.threshold');
      return {
        thresholdText: event.value,
        thresholdError: null,
        draft: { ...context.draft, threshold: parseDecimal(event.value, context.decimalComma) },
      };
    }),
    setMinimum: assign(({ context, event }) => {
      assertEvent(event, 'wizard.minimum');
      return {
        minimumText: event.value,
        thresholdError: null,
        draft: { ...context.draft, minimum: parseDecimal(event.value, context.decimalComma) },
      };
    }),
    setMaximum: assign(({ context, event }) => {
      assertEvent(event, 'wizard.maximum');
      return {
        maximumText: event.value,
        thresholdError: null,
        draft: { ...context.draft, maximum: parseDecimal(event.value, context.decimalComma) },
      };
    }),
    showThresholdError: assign(({ context }) => ({ thresholdError: thresholdError(context.draft) })),
    setServerError: assign({
      serverError: ({ event }) => serverErrorCode((event as { error?: unknown }).error),
    }),
    clearServerError: assign({ serverError: null }),
  },
  guards: {
    hasType: ({ context }) => context.draft.type !== null,
    hasQuantity: ({ context }) => furthestStep(context.draft) > 2,
    hasFrequency: ({ context }) => furthestStep(context.draft) > 3,
    isDraftComplete: ({ context }) => furthestStep(context.draft) === ALARM_STEPS.length,
    isThresholdValid: ({ context }) => thresholdError(context.draft) === null,
    isThresholdEditable: ({ context }) =>
      context.draft.type === 'threshold' || context.draft.type === 'comparison',
    isIndoorClimate: ({ context }) => context.draft.type === 'indoor_climate',
    isValidType: ({ event }) => {
      assertEvent(event, 'wizard.type');
      return ALARM_TYPES.includes(event.alarmType);
    },
    isValidQuantity: ({ context, event }) => {
      assertEvent(event, 'wizard.quantity');
      return (
        context.draft.type !== null && quantitiesForAlarmType(context.draft.type).includes(event.quantity)
      );
    },
    isValidFrequency: ({ event }) => {
      assertEvent(event, 'wizard.frequency');
      return ALARM_FREQUENCIES.includes(event.frequency);
    },
    isOpeningStep: ({ context }, params: { step: number }) =>
      params.step === Math.min(context.requestedStep, furthestStep(context.draft)),
    canGoto: ({ context, event }, params: { step: number }) => {
      assertEvent(event, 'wizard.goto');
      return event.step === params.step && params.step <= furthestStep(context.draft);
    },
  },
}).createMachine({
  id: 'alarmWizard',
  context: ({ input }) => {
    const alarm = input?.alarm ?? {};
    // A field given as undefined counts as unset (null), so a draft never carries undefined.
    const given = Object.fromEntries(Object.entries(alarm).filter(([, v]) => v !== undefined));
    const draft: AlarmDraft = { ...EMPTY, ...given };
    if (draft.type === 'zero_consumption') draft.threshold = 0;
    const decimalComma = input?.decimalComma ?? false;
    const text = (n: number | null) => decimalText(n, decimalComma);
    return {
      decimalComma,
      draft,
      thresholdText: text(draft.threshold),
      minimumText: text(draft.minimum),
      maximumText: text(draft.maximum),
      thresholdError: null,
      serverError: null,
      requestedStep: parseStepParam(input?.step) ?? 1,
    };
  },
  initial: 'steps',
  states: {
    steps: {
      initial: 'start',
      on: {
        // Browser back/forward (or a typed ?step=N): only steps already reachable can be opened.
        'wizard.goto': ALARM_STEPS.map((_, i) => ({
          guard: { type: 'canGoto' as const, params: { step: i + 1 } },
          target: targetOf(i + 1),
        })),
      },
      states: {
        // Opens the step the URL asks for, or the furthest reachable one before it.
        start: {
          always: ALARM_STEPS.map((_, i) => ({
            guard: { type: 'isOpeningStep' as const, params: { step: i + 1 } },
            target: targetOf(i + 1),
          })),
        },
        type: {
          entry: { type: 'showStep', params: { step: 1 } },
          on: {
            'wizard.type': { guard: 'isValidType', actions: 'setType' },
            'wizard.next': { guard: 'hasType', target: 'quantity' },
          },
        },
        quantity: {
          entry: { type: 'showStep', params: { step: 2 } },
          on: {
            'wizard.quantity': { guard: 'isValidQuantity', actions: 'setQuantity' },
            'wizard.next': { guard: 'hasQuantity', target: 'frequency' },
            'wizard.back': { target: 'type' },
          },
        },
        frequency: {
          entry: { type: 'showStep', params: { step: 3 } },
          on: {
            'wizard.frequency': { guard: 'isValidFrequency', actions: 'setFrequency' },
            'wizard.next': { guard: 'hasFrequency', target: 'threshold' },
            'wizard.back': { target: 'quantity' },
          },
        },
        threshold: {
          entry: { type: 'showStep', params: { step: 4 } },
          on: {
            'wizard.threshold': { guard: 'isThresholdEditable', actions: 'setThreshold' },
            'wizard.minimum': { guard: 'isIndoorClimate', actions: 'setMinimum' },
            'wizard.maximum': { guard: 'isIndoorClimate', actions: 'setMaximum' },
            'wizard.next': [
              { guard: 'isThresholdValid', target: 'review' },
              { actions: 'showThresholdError' },
            ],
            'wizard.back': { target: 'frequency' },
          },
        },
        review: {
          entry: { type: 'showStep', params: { step: 5 } },
          on: {
            'wizard.submit': {
              guard: 'isDraftComplete',
              target: '#alarmWizard.submitting',
              actions: 'clearServerError',
            },
            'wizard.back': { target: 'threshold' },
          },
        },
      },
    },
    submitting: {
      invoke: {
        id: 'saveAlarm',
        src: 'saveAlarm',
        input: ({ context }) => context.draft,
        onDone: { target: 'done' },
        onError: { target: '#alarmWizard.steps.review', actions: 'setServerError' },
      },
    },
    done: { type: 'final' },
  },
});

/**
 * The console's meter swap (issue 21): when the new meter took over, the old meter's end reading (optional: it
 * may not be readable), the new meter's number, start reading and radio id; then a confirmation that shows what
 * will be stored, and the save. The request is provided by the island (`swapMeter`); an error returns to the
 * form with the backend's code. The time is an instant (`atIso`): the island turns the local field into one.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate';

export interface MeterSwapRequest {
  meterId: string;
  at: string;
  endValue: string | null;
  newMeter: string;
  startValue: string;
  radioId: string | null;
}

type Field = 'endValue' | 'newMeter' | 'startValue' | 'radioId';

/** A register value as typed: digits with an optional decimal point or comma. */
const DECIMAL = /^\d+([.,]\d+)?$/;

export interface MeterSwapInput {
  meterId: string;
  meterNumber: string;
  installedAt: string;
  /** The old meter's newest reading: the swap cannot end the meter before it. */
  lastReadingAt: string | null;
  /** The time the form opened: a swap is recorded once it has happened, never ahead. */
  now: string;
}

export const meterSwapMachine = setup({
  types: {
    context: {} as MeterSwapInput & {
      atLocal: string;
      atIso: string;
      endValue: string;
      newMeter: string;
      startValue: string;
      radioId: string;
      error: string | null;
    },
    input: {} as MeterSwapInput,
    events: {} as
      | { type: 'at.change'; local: string; iso: string }
      | { type: 'field.change'; field: Field; value: string }
      | { type: 'submit' }
      | { type: 'back' }
      | { type: 'confirm' }
      | { type: 'cancel' },
  },
  actors: {
    swapMeter: fromPromise<unknown, MeterSwapRequest>(async () => {
      throw new Error('swapMeter is not provided');
    }),
  },
  guards: {
    /** After the old meter's installation and at or after its newest reading, and not after now. */
    atInPeriod: ({ context: c }) => {
      const at = Date.parse(c.atIso);
      if (Number.isNaN(at)) return false;
      if (at <= Date.parse(c.installedAt)) return false;
      if (c.lastReadingAt !== null && at < Date.parse(c.lastReadingAt)) return false;
      return at <= Date.parse(c.now);
    },
    /** A new meter number unlike the old one, a start reading, and an end reading when one is given. */
    readingsComplete: ({ context: c }) =>
      c.newMeter.trim() !== '' &&
      c.newMeter.trim() !== c.meterNumber &&
      DECIMAL.test(c.startValue.trim()) &&
      (c.endValue.trim() === '' || DECIMAL.test(c.endValue.trim())),
  },
  actions: {
    changeAt: assign(({ event }) => {
      assertEvent(event, 'at.change');
      return { atLocal: event.local, atIso: event.iso, error: null };
    }),
    change: assign(({ context, event }) => {
      assertEvent(event, 'field.change');
      return { ...context, [event.field]: event.value, error: null };
    }),
    clearError: assign({ error: null }),
    timeOutside: assign({ error: 'SWAP_TIME_OUTSIDE' }),
    incomplete: assign({ error: 'SWAP_INCOMPLETE' }),
    failed: assign({
      error: ({ event }) => ((event as { error?: unknown }).error as Error)?.message ?? 'UNKNOWN',
    }),
  },
}).createMachine({
  id: 'meterSwap',
  context: ({ input }) => ({
    ...input,
    atLocal: '',
    atIso: '',
    endValue: '',
    newMeter: '',
    startValue: '',
    radioId: '',
    error: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'at.change': { actions: 'changeAt' },
        'field.change': { actions: 'change' },
        submit: [{ guard: 'atInPeriod', target: 'checkingReadings' }, { actions: 'timeOutside' }],
        cancel: 'cancelled',
      },
    },
    checkingReadings: {
      always: [
        { guard: 'readingsComplete', target: 'confirming' },
        { target: 'editing', actions: 'incomplete' },
      ],
    },
    confirming: {
      // A swap the backend refused before is being tried again: its error no longer applies.
      entry: 'clearError',
      on: {
        back: 'editing',
        confirm: 'saving',
        cancel: 'cancelled',
      },
    },
    saving: {
      invoke: {
        id: 'swapMeter',
        src: 'swapMeter',
        input: ({ context: c }) => ({
          meterId: c.meterId,
          at: c.atIso,
          endValue: c.endValue.trim() === '' ? null : c.endValue.trim(),
          newMeter: c.newMeter.trim(),
          startValue: c.startValue.trim(),
          radioId: c.radioId.trim() === '' ? null : c.radioId.trim(),
        }),
        onDone: 'done',
        onError: { target: 'editing', actions: 'failed' },
      },
    },
    done: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { type ServerErrorCode, serverErrorCode } from '../lib/errors.ts';
import { normalizeActivationCode, validateActivationCodeFormat } from '../lib/validation.ts';

/** SPEC §7 validateActivationCode: ok, and when not ok the text is the rejection reason. */
export interface ActivationCodeResult {
  ok: boolean;
  text?: string | null;
}

/** Activation-code form: format check on submit, server validation, and the rejection text (SPEC §5, §8). */
export const activationFormMachine = setup({
  types: {
    context: {} as {
      code: string;
      codeError: 'activation_code_invalid' | null;
      serverError: ServerErrorCode | null;
      /** The server's rejection reason, shown as returned (SPEC §8). */
      serverText: string | null;
    },
    input: {} as { code?: string } | undefined,
    events: {} as { type: 'field.change'; field: 'code'; value: string } | { type: 'form.submit' },
    output: {} as { code: string },
  },
  actors: {
    // Replaced by the app with .provide(); the placeholder fails loudly so a missing wiring is visible.
    validateActivationCode: fromPromise<ActivationCodeResult, { code: string }>(async () => {
      throw new Error('validateActivationCode is not provided');
    }),
  },
  guards: {
    isCodeWellFormed: ({ context }) => validateActivationCodeFormat(context.code).ok,
    isAccepted: ({ event }) => (event as { output?: ActivationCodeResult }).output?.ok === true,
  },
  actions: {
    changeCode: assign(({ event }) => {
      assertEvent(event, 'field.change');
      return { code: event.value, codeError: null, serverError: null, serverText: null };
    }),
    showCodeError: assign({ codeError: 'activation_code_invalid' as const }),
    clearServerError: assign({ serverError: null, serverText: null }),
    setRejection: assign(({ event }) => {
      const text = (event as { output?: ActivationCodeResult }).output?.text;
      return {
        serverError: 'activation_code_invalid' as const,
        serverText: typeof text === 'string' && text.trim() !== '' ? text : null,
      };
    }),
    setServerError: assign({
      serverError: ({ event }) => serverErrorCode((event as { error?: unknown }).error),
    }),
  },
}).createMachine({
  id: 'activationForm',
  context: ({ input }) => ({ code: input?.code ?? '', codeError: null, serverError: null, serverText: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': { actions: 'changeCode' },
        'form.submit': [
          { guard: 'isCodeWellFormed', target: 'submitting', actions: 'clearServerError' },
          { actions: 'showCodeError' },
        ],
      },
    },
    submitting: {
      invoke: {
        id: 'validateActivationCode',
        src: 'validateActivationCode',
        input: ({ context }) => ({ code: normalizeActivationCode(context.code) }),
        onDone: [
          { guard: 'isAccepted', target: 'done' },
          { target: 'editing', actions: 'setRejection' },
        ],
        onError: { target: 'editing', actions: 'setServerError' },
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ code: normalizeActivationCode(context.code) }),
});

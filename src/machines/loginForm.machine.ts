import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { type ServerErrorCode, serverErrorCode } from '../lib/errors.ts';
import { validateEmail } from '../lib/validation.ts';
import { type Credentials, credentialsFormStates } from './credentialsForm.ts';

/** What the login form submits. */
export type LoginInput = Credentials;

/** Email and password login form: validates the email on submit, submits, and keeps the server's error. */
export const loginFormMachine = setup({
  types: {
    context: {} as {
      email: string;
      password: string;
      emailError: 'email_invalid' | null;
      passwordError: 'password_required' | null;
      serverError: ServerErrorCode | null;
    },
    events: {} as
      | { type: 'field.change'; field: 'email' | 'password'; value: string }
      | { type: 'form.submit' },
  },
  actors: {
    // Replaced by the app with .provide(); the placeholder fails loudly so a missing wiring is visible.
    submitLogin: fromPromise<unknown, LoginInput>(async () => {
      throw new Error('submitLogin is not provided');
    }),
  },
  guards: {
    isFormValid: ({ context }) => validateEmail(context.email) === null && context.password.length > 0,
  },
  actions: {
    changeField: assign(({ event }) => {
      assertEvent(event, 'field.change');
      if (event.field === 'email') return { email: event.value, emailError: null, serverError: null };
      return { password: event.value, passwordError: null, serverError: null };
    }),
    showFieldErrors: assign(({ context }) => ({
      emailError: validateEmail(context.email),
      passwordError: context.password.length > 0 ? null : ('password_required' as const),
    })),
    clearServerError: assign({ serverError: null }),
    setServerError: assign({
      serverError: ({ event }) => serverErrorCode((event as { error?: unknown }).error),
    }),
  },
}).createMachine({
  id: 'loginForm',
  context: { email: '', password: '', emailError: null, passwordError: null, serverError: null },
  initial: 'editing',
  states: credentialsFormStates('submitLogin'),
});

import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { type ServerErrorCode, serverErrorCode } from '../lib/errors.ts';
import {
  confirmPasswordError,
  type PasswordError,
  passwordErrors,
  validateEmail,
} from '../lib/validation.ts';
import { type Credentials, credentialsFormStates } from './credentialsForm.ts';

/** What the signup form submits. */
export type SignupInput = Credentials;

type Field = 'email' | 'password' | 'confirmPassword';

/** Email signup form: live password rules, confirmation, submit, and the server's error (SPEC §5, §8). */
export const signupFormMachine = setup({
  types: {
    context: {} as {
      email: string;
      password: string;
      confirmPassword: string;
      emailError: 'email_invalid' | null;
      /** Every rule the password breaks, recomputed as the user types (the form shows it as a checklist). */
      passwordErrors: PasswordError[];
      confirmError: 'passwords_mismatch' | null;
      /** False until the first submit, so errors are not shown on an untouched form. */
      showErrors: boolean;
      serverError: ServerErrorCode | null;
    },
    events: {} as { type: 'field.change'; field: Field; value: string } | { type: 'form.submit' },
  },
  actors: {
    // Replaced by the app with .provide(); the placeholder fails loudly so a missing wiring is visible.
    submitSignup: fromPromise<unknown, SignupInput>(async () => {
      throw new Error('submitSignup is not provided');
    }),
  },
  guards: {
    isFormValid: ({ context }) =>
      validateEmail(context.email) === null &&
      passwordErrors(context.password).length === 0 &&
      confirmPasswordError(context.password, context.confirmPassword) === null,
  },
  actions: {
    changeField: assign(({ event }) => {
      assertEvent(event, 'field.change');
      if (event.field === 'email') return { email: event.value, emailError: null, serverError: null };
      if (event.field === 'password') {
        return {
          password: event.value,
          passwordErrors: passwordErrors(event.value),
          confirmError: null,
          serverError: null,
        };
      }
      return { confirmPassword: event.value, confirmError: null, serverError: null };
    }),
    showFieldErrors: assign(({ context }) => ({
      showErrors: true,
      emailError: validateEmail(context.email),
      passwordErrors: passwordErrors(context.password),
      confirmError: confirmPasswordError(context.password, context.confirmPassword),
    })),
    clearServerError: assign({ serverError: null }),
    setServerError: assign({
      serverError: ({ event }) => serverErrorCode((event as { error?: unknown }).error),
    }),
  },
}).createMachine({
  id: 'signupForm',
  context: {
    email: '',
    password: '',
    confirmPassword: '',
    emailError: null,
    passwordErrors: passwordErrors(''),
    confirmError: null,
    showErrors: false,
    serverError: null,
  },
  initial: 'editing',
  states: credentialsFormStates('submitSignup'),
});

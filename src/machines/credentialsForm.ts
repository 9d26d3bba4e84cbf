import { normalizeEmail } from '../lib/validation.ts';

/** What an email-and-password form (login, signup) submits: the trimmed email and the password. */
export interface Credentials {
  email: string;
  password: string;
}

/**
 * The states of an email-and-password form: editing until a valid submit, then the named actor with the
 * credentials; a server error returns to editing. The machine supplies the guard isFormValid and the actions
 * changeField, showFieldErrors, clearServerError and setServerError, so login and signup cannot drift apart.
 */
export function credentialsFormStates<const TActor extends string>(actor: TActor) {
  return {
    editing: {
      on: {
        'field.change': { actions: 'changeField' },
        'form.submit': [
          { guard: 'isFormValid', target: 'submitting', actions: 'clearServerError' },
          { actions: 'showFieldErrors' },
        ],
      },
    },
    submitting: {
      invoke: {
        id: actor,
        src: actor,
        input: ({ context }: { context: Credentials }): Credentials => ({
          email: normalizeEmail(context.email),
          password: context.password,
        }),
        onDone: { target: 'done' },
        onError: { target: 'editing', actions: 'setServerError' },
      },
    },
    done: { type: 'final' },
  } as const;
}

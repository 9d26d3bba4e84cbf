/**
 * Drives the server-rendered login form with the loginForm machine: the DOM shows the machine's state,
 * as the React island did, without shipping a framework to the login page.
 */
import { navigate } from 'astro:transitions/client';
import { createActor, fromPromise } from 'xstate';
import { type ServerErrorCode, throttleAwareMessage } from '../../lib/errors.ts';
import { type LoginInput, loginFormMachine } from '../../machines/loginForm.machine.ts';

/** The texts the server put on the form, in the page's language. */
type Messages = {
  email_invalid: string;
  password_required: string;
  submit: string;
  submitting: string;
  errors: Partial<Record<ServerErrorCode, string>>;
  wait_one_minute?: string;
};

const session = () => import('../../client/session.ts');

/** Shows or removes a field's error text, linked to the input for assistive technology. */
function showFieldError(input: HTMLInputElement, text: string | null): void {
  const id = `${input.id}-error`;
  let error = document.getElementById(id);
  if (!text) {
    error?.remove();
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
    return;
  }
  if (!error) {
    error = document.createElement('p');
    error.id = id;
    error.className = 'field-error';
    // Announced when it appears, and read again with the field (aria-describedby).
    error.setAttribute('role', 'alert');
    input.after(error);
  }
  error.textContent = text;
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', id);
}

/** Shows the server's error as an alert at the top of the form, inserted so screen readers announce it. */
function showServerError(form: HTMLFormElement, text: string | null): void {
  let alert = form.querySelector<HTMLElement>(':scope > [role="alert"]');
  if (!text) {
    alert?.remove();
    return;
  }
  if (alert?.textContent === text) return;
  alert?.remove();
  alert = document.createElement('div');
  alert.className = 'alert error';
  alert.setAttribute('role', 'alert');
  alert.textContent = text;
  form.prepend(alert);
}

function enhance(form: HTMLFormElement): void {
  if (form.dataset.ready) return;
  const messages = JSON.parse(form.dataset.messages ?? '{}') as Messages;
  const email = form.elements.namedItem('email') as HTMLInputElement;
  const password = form.elements.namedItem('password') as HTMLInputElement;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  let lastError: unknown = null;

  const actor = createActor(
    loginFormMachine.provide({
      actors: {
        submitLogin: fromPromise<unknown, LoginInput>(async ({ input }) => {
          // The session and both backends load on first use, not with the page.
          const { afterLoginPath, loginThroughSession } = await session();
          try {
            const snapshot = await loginThroughSession(input.email, input.password);
            await navigate(afterLoginPath(snapshot));
          } catch (err) {
            // The throttle's answer says how long to wait; the message template has {{minutes}}.
            lastError = err;
            throw err;
          }
        }),
      },
    }),
  );
  let focusedEmailError: string | null = null;
  actor.subscribe((snapshot) => {
    const { emailError, passwordError, serverError } = snapshot.context;
    showFieldError(email, emailError ? messages.email_invalid : null);
    showFieldError(password, passwordError ? messages.password_required : null);
    showServerError(
      form,
      serverError
        ? throttleAwareMessage(serverError, lastError, messages, messages.errors.unknown ?? '')
        : null,
    );
    const submitting = snapshot.matches('submitting') || snapshot.matches('done');
    button.disabled = submitting;
    button.setAttribute('aria-busy', String(submitting));
    button.textContent = submitting ? messages.submitting : messages.submit;
    if (emailError && emailError !== focusedEmailError) email.focus();
    focusedEmailError = emailError;
  });
  actor.start();

  const change = (field: 'email' | 'password', input: HTMLInputElement) => () =>
    actor.send({ type: 'field.change', field, value: input.value });
  email.addEventListener('input', change('email', email));
  password.addEventListener('input', change('password', password));
  // Whatever was typed or autofilled before this script ran counts too.
  if (email.value) change('email', email)();
  if (password.value) change('password', password)();
  form.addEventListener('focusin', () => void session(), { once: true });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    // Autofill does not always fire input events.
    if (email.value !== actor.getSnapshot().context.email) change('email', email)();
    if (password.value !== actor.getSnapshot().context.password) change('password', password)();
    actor.send({ type: 'form.submit' });
  });
  form.dataset.ready = 'true';
}

/** Enhances every login form on the page (run on each page load; soft navigation included). */
export function enhanceLoginForms(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-login-form]')) enhance(form);
}

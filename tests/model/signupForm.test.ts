import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { signupFormMachine } from '../../src/machines/signupForm.machine.ts';
import { Deferreds, executor, modelOf, type Outcomes, replay } from './harness.ts';

const userExists = { message: 'A user already exists with that email, but the password is not correct.' };

// Data events with valid and invalid payloads; the invoke's done/error events stand for the server's answer.
const events = [
  { type: 'field.change', field: 'email', value: 'new@example.com' },
  { type: 'field.change', field: 'email', value: 'new@example' },
  { type: 'field.change', field: 'password', value: 'Str0ng&Unusual' },
  { type: 'field.change', field: 'password', value: 'weak' },
  { type: 'field.change', field: 'confirmPassword', value: 'Str0ng&Unusual' },
  { type: 'field.change', field: 'confirmPassword', value: 'Different1!x' },
  { type: 'form.submit' },
  { type: 'xstate.done.actor.submitSignup', output: { token: 't' } },
  { type: 'xstate.error.actor.submitSignup', error: userExists },
] as const;

const model = createTestModel(modelOf(signupFormMachine), { events: events as never, limit: 5000 });
const paths = model.getShortestPaths({ limit: 5000 });

function sut() {
  const deferreds = new Deferreds();
  const actor = createActor(
    signupFormMachine.provide({ actors: { submitSignup: deferreds.actor as never } }),
  ).start();
  return { actor, deferreds, exec: executor(actor, deferreds) };
}

type Context = ReturnType<typeof signupFormMachine.getInitialSnapshot>['context'];
const STRONG = 'Str0ng&Unusual';

/** What each end state must hold, by SPEC §5 (written by hand): only a valid email, a strong password and its
 * exact confirmation are submitted, and errors show only after a submit. */
const outcomes: Outcomes<Context> = [
  [
    'editing',
    (c) => {
      if (!c.showErrors) expect([c.emailError, c.confirmError]).toEqual([null, null]);
      if (c.emailError) expect(c.email).not.toBe('new@example.com');
      if (c.confirmError) expect(c.confirmPassword).not.toBe(c.password);
      expect(c.passwordErrors.length === 0).toBe(c.password === STRONG);
    },
  ],
  [
    'submitting',
    {
      email: 'new@example.com',
      password: STRONG,
      confirmPassword: STRONG,
      passwordErrors: [],
      serverError: null,
    },
  ],
  ['done', { email: 'new@example.com', password: STRONG, confirmPassword: STRONG }],
];

describe('signupForm model', () => {
  it('has the expected number of shortest paths', () => {
    expect(paths).toHaveLength(49);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, exec } = sut();
      await replay(path, actor, exec, outcomes);
    });
  }
});

describe('signupForm details', () => {
  it('checks the password rules as the user types, and submits only a valid form', async () => {
    const { actor, exec, deferreds } = sut();
    expect(actor.getSnapshot().context.showErrors).toBe(false);
    await exec({ type: 'field.change', field: 'password', value: 'abcdefghijk' } as never);
    expect(actor.getSnapshot().context.passwordErrors).toEqual([
      'password_too_short',
      'password_no_capital',
      'password_no_digit',
      'password_no_special',
    ]);
    await exec({ type: 'field.change', field: 'password', value: 'Password123!' } as never);
    expect(actor.getSnapshot().context.passwordErrors).toEqual(['password_too_common']);
    await exec({ type: 'field.change', field: 'email', value: 'new@example.com' } as never);
    await exec({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.confirmError).toBe('passwords_mismatch');
    expect(deferreds.has('submitSignup')).toBe(false);
  });

  it('maps the user-exists server error', async () => {
    const { actor, exec } = sut();
    for (const [field, value] of [
      ['email', 'new@example.com'],
      ['password', 'Str0ng&Unusual'],
      ['confirmPassword', 'Str0ng&Unusual'],
    ]) {
      await exec({ type: 'field.change', field, value } as never);
    }
    await exec({ type: 'form.submit' });
    await exec({ type: 'xstate.error.actor.submitSignup', error: userExists });
    expect(actor.getSnapshot().context.serverError).toBe('user_exists');
  });
});

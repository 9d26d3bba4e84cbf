import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { loginFormMachine } from '../../src/machines/loginForm.machine.ts';
import { Deferreds, executor, flush, modelOf, type Outcomes, replay } from './harness.ts';

const invalidCredentials = {
  message: 'Please enter valid credentials',
  extensions: { code: 'INVALID_CREDENTIALS' },
};

// Data events with valid and invalid payloads; the invoke's done/error events stand for the server's answer.
const events = [
  { type: 'field.change', field: 'email', value: 'tenant@example.com' },
  { type: 'field.change', field: 'email', value: 'not-an-email' },
  { type: 'field.change', field: 'password', value: 'Secret-pass-1' },
  { type: 'field.change', field: 'password', value: '' },
  { type: 'form.submit' },
  { type: 'xstate.done.actor.submitLogin', output: { ok: true } },
  { type: 'xstate.error.actor.submitLogin', error: invalidCredentials },
] as const;

const model = createTestModel(modelOf(loginFormMachine), { events: events as never, limit: 2000 });
const paths = model.getShortestPaths({ limit: 2000 });

function sut() {
  const deferreds = new Deferreds();
  const actor = createActor(
    loginFormMachine.provide({ actors: { submitLogin: deferreds.actor as never } }),
  ).start();
  return { actor, deferreds, exec: executor(actor, deferreds) };
}

type Context = ReturnType<typeof loginFormMachine.getInitialSnapshot>['context'];

/** What each end state must hold (written by hand): a submit needs a valid email and any password. */
const outcomes: Outcomes<Context> = [
  [
    'editing',
    (c) => {
      if (c.emailError) expect(c.email.trim()).not.toBe('tenant@example.com');
      if (c.passwordError) expect(c.password).toBe('');
    },
  ],
  ['submitting', { email: 'tenant@example.com', emailError: null, passwordError: null, serverError: null }],
  ['done', (c) => expect(c.password).not.toBe('')],
];

describe('loginForm model', () => {
  it('has the expected number of shortest paths', () => {
    expect(paths).toHaveLength(8);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, exec } = sut();
      await replay(path, actor, exec, outcomes);
    });
  }
});

describe('loginForm details', () => {
  it('sends the trimmed email and clears the server error on change', async () => {
    const { actor, exec, deferreds } = sut();
    await exec({ type: 'field.change', field: 'email', value: '  tenant@example.com ' } as never);
    await exec({ type: 'field.change', field: 'password', value: 'x' } as never);
    await exec({ type: 'form.submit' });
    expect(deferreds.input('submitLogin')).toEqual({ email: 'tenant@example.com', password: 'x' });
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(actor.getSnapshot().can({ type: 'form.submit' })).toBe(false);
    await exec({ type: 'xstate.error.actor.submitLogin', error: new Error('login required') });
    expect(actor.getSnapshot().context.serverError).toBe('login_required');
    await exec({ type: 'field.change', field: 'password', value: 'y' } as never);
    expect(actor.getSnapshot().context.serverError).toBeNull();
  });

  it('fails visibly when the app forgot to provide submitLogin', async () => {
    const actor = createActor(loginFormMachine).start();
    actor.send({ type: 'field.change', field: 'email', value: 'tenant@example.com' });
    actor.send({ type: 'field.change', field: 'password', value: 'x' });
    actor.send({ type: 'form.submit' });
    await flush();
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.serverError).toBe('unknown');
  });
});

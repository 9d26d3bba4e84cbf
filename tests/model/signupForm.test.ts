import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { type SignupInput, signupFormMachine } from '../../src/machines/signupForm.machine.ts';
import { flush, modelOf, type Pending, pending, replay } from './harness.ts';

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
  let call: Pending<unknown> | null = null;
  const inputs: SignupInput[] = [];
  const actor = createActor(
    signupFormMachine.provide({
      actors: {
        submitSignup: fromPromise<unknown, SignupInput>(({ input }) => {
          inputs.push(input);
          call = pending();
          return call.promise;
        }),
      },
    }),
  ).start();
  const exec = async (event: { type: string; output?: unknown; error?: unknown }) => {
    if (event.type === 'xstate.done.actor.submitSignup') {
      const { email, password } = actor.getSnapshot().context;
      expect(inputs.at(-1)).toEqual({ email, password });
      call?.resolve(event.output);
    } else if (event.type === 'xstate.error.actor.submitSignup') call?.reject(event.error);
    else actor.send(event as never);
    await flush();
  };
  return { actor, exec, inputs };
}

describe('signupForm model', () => {
  it('has the expected number of shortest paths', () => {
    expect(paths).toHaveLength(49);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, exec } = sut();
      await replay(path, actor, exec);
    });
  }
});

describe('signupForm details', () => {
  it('checks the password rules as the user types, and submits only a valid form', async () => {
    const { actor, exec, inputs } = sut();
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
    expect(inputs).toEqual([]);
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

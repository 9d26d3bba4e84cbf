import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  type ActivationCodeResult,
  activationFormMachine,
} from '../../src/machines/activationForm.machine.ts';
import { flush, modelOf, type Pending, pending, replay } from './harness.ts';

// Data events with valid and invalid payloads; done events carry the server's { ok, text } answer.
const events = [
  { type: 'field.change', field: 'code', value: 'abcd-efgh-ijkl' },
  { type: 'field.change', field: 'code', value: 'ABC-123' },
  { type: 'form.submit' },
  { type: 'xstate.done.actor.validateActivationCode', output: { ok: true, text: '' } },
  { type: 'xstate.done.actor.validateActivationCode', output: { ok: false, text: 'The code has expired' } },
  {
    type: 'xstate.error.actor.validateActivationCode',
    error: { message: 'x', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
  },
] as const;

const model = createTestModel(modelOf(activationFormMachine), { events: events as never, limit: 2000 });
const paths = model.getShortestPaths({ limit: 2000 });

function sut(input?: { code?: string }) {
  let call: Pending<ActivationCodeResult> | null = null;
  const inputs: Array<{ code: string }> = [];
  const actor = createActor(
    activationFormMachine.provide({
      actors: {
        validateActivationCode: fromPromise<ActivationCodeResult, { code: string }>(({ input }) => {
          inputs.push(input);
          call = pending();
          return call.promise;
        }),
      },
    }),
    { input },
  ).start();
  const exec = async (event: { type: string; output?: unknown; error?: unknown }) => {
    if (event.type === 'xstate.done.actor.validateActivationCode') {
      expect(inputs.at(-1)?.code).toMatch(/^[A-Z]{12}$/);
      call?.resolve(event.output as ActivationCodeResult);
    } else if (event.type === 'xstate.error.actor.validateActivationCode') call?.reject(event.error);
    else actor.send(event as never);
    await flush();
  };
  return { actor, exec, inputs };
}

describe('activationForm model', () => {
  it('has the expected number of shortest paths', () => {
    expect(paths).toHaveLength(5);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, exec } = sut();
      await replay(path, actor, exec);
    });
  }
});

describe('activationForm details', () => {
  it('starts from a code in the URL and outputs it normalised', async () => {
    const { actor, exec, inputs } = sut({ code: 'abcd efgh ijkl' });
    await exec({ type: 'form.submit' });
    expect(inputs).toEqual([{ code: 'ABCDEFGHIJKL' }]);
    await exec({ type: 'xstate.done.actor.validateActivationCode', output: { ok: true } });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ code: 'ABCDEFGHIJKL' });
  });

  it('shows the rejection text the server returned', async () => {
    const { actor, exec } = sut({ code: 'ABCDEFGHIJKL' });
    await exec({ type: 'form.submit' });
    await exec({
      type: 'xstate.done.actor.validateActivationCode',
      output: { ok: false, text: 'Already used' },
    });
    expect(actor.getSnapshot().context).toMatchObject({
      serverError: 'activation_code_invalid',
      serverText: 'Already used',
    });
  });

  it('refuses a malformed code without calling the server', async () => {
    const { actor, exec, inputs } = sut({ code: 'ABCDEFGHIJK' });
    await exec({ type: 'form.submit' });
    expect(inputs).toEqual([]);
    expect(actor.getSnapshot().context.codeError).toBe('activation_code_invalid');
  });
});

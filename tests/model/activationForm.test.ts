import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { activationFormMachine } from '../../src/machines/activationForm.machine.ts';
import { Deferreds, executor, modelOf, type Outcomes, replay } from './harness.ts';

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
  const deferreds = new Deferreds();
  const actor = createActor(
    activationFormMachine.provide({ actors: { validateActivationCode: deferreds.actor as never } }),
    { input },
  ).start();
  return { actor, deferreds, exec: executor(actor, deferreds) };
}

type Context = ReturnType<typeof activationFormMachine.getInitialSnapshot>['context'];
const TWELVE_LETTERS = /^[A-Z]{12}$/;
const normal = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

/** What each end state must hold, by SPEC §5 and §8 (written by hand). */
const outcomes: Outcomes<Context> = [
  [
    'editing',
    (c) => {
      // The format error only for a code that is not 12 letters; the server's reason only with its error.
      if (c.codeError) expect(normal(c.code)).not.toMatch(TWELVE_LETTERS);
      if (c.serverText) expect(c.serverError).toBe('activation_code_invalid');
    },
  ],
  ['submitting', (c) => expect(normal(c.code)).toMatch(TWELVE_LETTERS)],
  ['done', (c) => expect(normal(c.code)).toBe('ABCDEFGHIJKL')],
];

describe('activationForm model', () => {
  it('has the expected number of shortest paths', () => {
    expect(paths).toHaveLength(5);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, exec } = sut();
      await replay(path, actor, exec, outcomes);
    });
  }
});

describe('activationForm details', () => {
  it('starts from a code in the URL and outputs it normalised', async () => {
    const { actor, exec, deferreds } = sut({ code: 'abcd efgh ijkl' });
    await exec({ type: 'form.submit' });
    expect(deferreds.input('validateActivationCode')).toEqual({ code: 'ABCDEFGHIJKL' });
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
    const { actor, exec, deferreds } = sut({ code: 'ABCDEFGHIJK' });
    await exec({ type: 'form.submit' });
    expect(deferreds.has('validateActivationCode')).toBe(false);
    expect(actor.getSnapshot().context.codeError).toBe('activation_code_invalid');
  });
});

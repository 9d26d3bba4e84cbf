/**
 * The console's meter swap flow (meterSwap.machine.ts) through the shared harness: every shortest path over the
 * events below, replayed on the live actor with its swap request settled by hand, ends with the context written
 * out for that state.
 */
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, createActor, createMachine, type EventObject } from 'xstate';
import { createTestModel } from 'xstate/graph';
import { type MeterSwapInput, meterSwapMachine } from '../../src/machines/meterSwap.machine.ts';
import { Deferreds, executor, modelOf, type Outcomes, replay } from './harness.ts';

const INPUT: MeterSwapInput = {
  meterId: '7',
  meterNumber: 'OLD-1',
  installedAt: '2024-01-01T00:00:00.000Z',
  lastReadingAt: '2025-02-01T00:00:00.000Z',
  now: '2025-03-10T00:00:00.000Z',
};
const GOOD_AT = '2025-03-01T11:00:00.000Z';

const events = [
  { type: 'at.change', local: '2025-03-01T12:00', iso: GOOD_AT },
  { type: 'at.change', local: '2024-01-01T00:00', iso: '2023-12-31T23:00:00.000Z' },
  { type: 'field.change', field: 'newMeter', value: 'NEW-1' },
  { type: 'field.change', field: 'startValue', value: '0,5' },
  { type: 'submit' },
  { type: 'back' },
  { type: 'confirm' },
  { type: 'cancel' },
  { type: 'xstate.done.actor.swapMeter', output: { id: '8' } },
  { type: 'xstate.error.actor.swapMeter', error: new Error('METER_SWAP_REFUSED') },
] as const;

/** The machine with this test's input built into its context: the model walks without an input. */
const config = meterSwapMachine.config as { context: (a: { input: MeterSwapInput }) => unknown };
const withInput = createMachine(
  { ...meterSwapMachine.config, context: config.context({ input: INPUT }) } as never,
  meterSwapMachine.implementations as never,
) as unknown as AnyStateMachine;
const model = createTestModel(modelOf(withInput), { events: events as never, limit: 5000 });
const paths = model.getShortestPaths({ limit: 5000 });

type Context = ReturnType<typeof meterSwapMachine.getInitialSnapshot>['context'];

function sut() {
  const deferreds = new Deferreds();
  const actor = createActor(meterSwapMachine.provide({ actors: { swapMeter: deferreds.actor as never } }), {
    input: INPUT,
  }).start();
  return { actor, deferreds, exec: executor(actor, deferreds) };
}

/** A complete, valid swap as the form holds it. */
const READY = { atIso: GOOD_AT, newMeter: 'NEW-1', startValue: '0,5' };

const outcomes: Outcomes<Context> = [
  [
    'editing',
    (c) => {
      // Each error only when its rule is broken; a failed save keeps the backend's code and the values.
      if (c.error === 'SWAP_TIME_OUTSIDE') expect(c.atIso).not.toBe(GOOD_AT);
      if (c.error === 'SWAP_INCOMPLETE') {
        expect(c.atIso).toBe(GOOD_AT);
        expect(c.newMeter === 'NEW-1' && c.startValue === '0,5').toBe(false);
      }
      if (c.error === 'METER_SWAP_REFUSED') expect(c).toMatchObject(READY);
      expect([null, 'SWAP_TIME_OUTSIDE', 'SWAP_INCOMPLETE', 'METER_SWAP_REFUSED']).toContain(c.error);
    },
  ],
  ['confirming', { ...READY, error: null }],
  ['saving', { ...READY, error: null }],
  ['done', { ...READY, error: null }],
  ['cancelled', (c) => expect(c.meterId).toBe('7')],
];

describe('meterSwap model', () => {
  it('has the expected number of shortest paths', () => {
    expect(paths).toHaveLength(27);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, exec } = sut();
      await replay(path, actor, exec, outcomes);
    });
  }
});

describe('meterSwap details', () => {
  it('sends the trimmed values, a null end reading and radio id when they are empty', async () => {
    const { actor, exec, deferreds } = sut();
    await exec({ type: 'at.change', local: '2025-03-01T12:00', iso: GOOD_AT } as EventObject);
    await exec({ type: 'field.change', field: 'newMeter', value: '  NEW-1 ' } as EventObject);
    await exec({ type: 'field.change', field: 'startValue', value: ' 0.5 ' } as EventObject);
    await exec({ type: 'submit' });
    expect(actor.getSnapshot().value).toBe('confirming');
    await exec({ type: 'confirm' });
    expect(deferreds.input('swapMeter')).toEqual({
      meterId: '7',
      at: GOOD_AT,
      endValue: null,
      newMeter: 'NEW-1',
      startValue: '0.5',
      radioId: null,
    });
    await exec({ type: 'xstate.done.actor.swapMeter', output: {} });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('a refused save returns to the form with the code and every value kept; back keeps them too', async () => {
    const { actor, exec } = sut();
    await exec({ type: 'at.change', local: '2025-03-01T12:00', iso: GOOD_AT } as EventObject);
    await exec({ type: 'field.change', field: 'endValue', value: '12' } as EventObject);
    await exec({ type: 'field.change', field: 'newMeter', value: 'NEW-1' } as EventObject);
    await exec({ type: 'field.change', field: 'startValue', value: '1' } as EventObject);
    await exec({ type: 'field.change', field: 'radioId', value: 'R-9' } as EventObject);
    await exec({ type: 'submit' });
    await exec({ type: 'back' });
    expect(actor.getSnapshot().value).toBe('editing');
    await exec({ type: 'submit' });
    await exec({ type: 'confirm' });
    await exec({ type: 'xstate.error.actor.swapMeter', error: new Error('METER_SWAP_REFUSED') });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context).toMatchObject({
      error: 'METER_SWAP_REFUSED',
      endValue: '12',
      newMeter: 'NEW-1',
      startValue: '1',
      radioId: 'R-9',
    });
    // A change clears the error.
    await exec({ type: 'field.change', field: 'radioId', value: 'R-10' } as EventObject);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});

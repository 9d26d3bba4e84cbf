import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  type AlarmDraft,
  alarmWizardMachine,
  furthestStep,
  parseDecimal,
  parseStepParam,
  thresholdError,
} from '../../src/machines/alarmWizard.machine.ts';
import { Deferreds, executor, modelOf, type Outcomes, replay } from './harness.ts';

// Data events with valid and invalid payloads; done/error events stand for the save call.
const events = [
  { type: 'wizard.type', alarmType: 'threshold' },
  { type: 'wizard.type', alarmType: 'zero_consumption' },
  { type: 'wizard.type', alarmType: 'indoor_climate' },
  { type: 'wizard.type', alarmType: 'bogus' },
  { type: 'wizard.quantity', quantity: 'heat-energy' },
  { type: 'wizard.quantity', quantity: 'indoor-temperature' },
  { type: 'wizard.quantity', quantity: 'steam' },
  { type: 'wizard.frequency', frequency: 'month' },
  { type: 'wizard.frequency', frequency: 'hourly' },
  { type: 'wizard.threshold', value: '12,5' },
  { type: 'wizard.threshold', value: 'abc' },
  { type: 'wizard.minimum', value: '18' },
  { type: 'wizard.maximum', value: '16' },
  { type: 'wizard.next' },
  { type: 'wizard.back' },
  { type: 'wizard.goto', step: 1 },
  { type: 'wizard.goto', step: 5 },
  { type: 'wizard.submit' },
  { type: 'xstate.done.actor.saveAlarm', output: { id: 'a1' } },
  { type: 'xstate.error.actor.saveAlarm', error: { message: 'x', extensions: { code: 'BAD_USER_INPUT' } } },
] as const;

// Each choice is made once and navigation is walked from complete drafts (the rest is covered below): crossing every re-choice with every
// later step would multiply the paths without new checks. Invalid payloads are still offered at each step.
const model = createTestModel(modelOf(alarmWizardMachine), {
  events: events as never,
  limit: 20000,
  stopWhen: (s) => s.context.serverError !== null,
  filterEvents: (s, e) => {
    const c = s.context;
    switch (e.type) {
      case 'wizard.type':
        return c.draft.type === null;
      case 'wizard.quantity':
        return c.draft.quantity === null;
      case 'wizard.frequency':
        return c.draft.frequency === null;
      case 'wizard.threshold':
        return c.thresholdText === '';
      case 'wizard.minimum':
        return c.minimumText === '';
      case 'wizard.maximum':
        return c.maximumText === '';
      case 'wizard.back':
      case 'wizard.goto':
        // Navigation is walked from the review of a complete draft, where every step is open.
        return furthestStep(c.draft) === 5 && s.matches({ steps: 'review' });
      default:
        return true;
    }
  },
});
const paths = model.getShortestPaths({ limit: 20000 });

function sut(input?: { step?: unknown; alarm?: Partial<AlarmDraft>; decimalComma?: boolean }) {
  const deferreds = new Deferreds();
  const shown: number[] = [];
  const actor = createActor(
    alarmWizardMachine.provide({
      actions: {
        showStep: (_, params) => {
          shown.push(params.step);
        },
      },
      actors: { saveAlarm: deferreds.actor as never },
    }),
    { input },
  ).start();
  return { actor, deferreds, exec: executor(actor, deferreds), shown };
}

type Context = ReturnType<typeof alarmWizardMachine.getInitialSnapshot>['context'];

// SPEC §3, §5, written by hand: the quantity each type may watch (of the events above), and a limit that lets
// the wizard go on (a threshold of 0 or more, zero consumption's fixed 0, a minimum below a maximum).
const FITS: Record<string, string> = {
  threshold: 'heat-energy',
  zero_consumption: 'heat-energy',
  indoor_climate: 'indoor-temperature',
};
const chosen = (c: Context, upTo: number) => {
  if (upTo >= 2) expect(c.draft.type).not.toBeNull();
  if (upTo >= 3) expect(c.draft.quantity).toBe(FITS[c.draft.type!]);
  if (upTo >= 4) expect(c.draft.frequency).toBe('month');
  if (upTo >= 5) {
    const { type, threshold, minimum, maximum } = c.draft;
    if (type === 'zero_consumption') expect(threshold).toBe(0);
    else if (type === 'indoor_climate') {
      expect(minimum !== null || maximum !== null).toBe(true);
      if (minimum !== null && maximum !== null) expect(minimum).toBeLessThan(maximum);
    } else expect(threshold).toBeGreaterThanOrEqual(0);
  }
};
const outcomes: Outcomes<Context> = [
  [{ steps: 'type' }, (c) => chosen(c, 1)],
  [{ steps: 'quantity' }, (c) => chosen(c, 2)],
  [{ steps: 'frequency' }, (c) => chosen(c, 3)],
  [{ steps: 'threshold' }, (c) => chosen(c, 4)],
  [{ steps: 'review' }, (c) => chosen(c, 5)],
  ['submitting', (c) => chosen(c, 5)],
  ['done', (c) => chosen(c, 5)],
];

describe('alarmWizard model', () => {
  it('has the expected number of shortest paths', () => {
    expect(paths).toHaveLength(33);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, exec, shown } = sut();
      await replay(path, actor, exec, outcomes);
      // The URL always shows the step on screen.
      const value = actor.getSnapshot().value as { steps?: string } | string;
      if (typeof value === 'object' && value.steps) {
        const steps = ['type', 'quantity', 'frequency', 'threshold', 'review'];
        expect(shown.at(-1)).toBe(steps.indexOf(value.steps) + 1);
      }
    });
  }
});

async function fill(exec: (e: never) => Promise<void>, ...evs: object[]) {
  for (const e of evs) await exec(e as never);
}

describe('alarmWizard details', () => {
  it('fixes the zero-consumption threshold at 0 and ignores edits', async () => {
    const { actor, exec } = sut();
    await fill(exec, { type: 'wizard.type', alarmType: 'zero_consumption' }, { type: 'wizard.next' });
    await fill(exec, { type: 'wizard.quantity', quantity: 'cold-water-volume' }, { type: 'wizard.next' });
    await fill(exec, { type: 'wizard.frequency', frequency: 'day' }, { type: 'wizard.next' });
    expect(actor.getSnapshot().can({ type: 'wizard.threshold', value: '5' })).toBe(false);
    await exec({ type: 'wizard.threshold', value: '5' } as never);
    expect(actor.getSnapshot().context.draft.threshold).toBe(0);
    await exec({ type: 'wizard.next' } as never);
    expect(actor.getSnapshot().matches({ steps: 'review' })).toBe(true);
  });

  it('clears the fixed 0 when the type changes away from zero consumption', async () => {
    const { actor, exec } = sut();
    await fill(
      exec,
      { type: 'wizard.type', alarmType: 'zero_consumption' },
      { type: 'wizard.type', alarmType: 'threshold' },
    );
    expect(actor.getSnapshot().context.draft.threshold).toBeNull();
    expect(actor.getSnapshot().context.thresholdText).toBe('');
  });

  it('drops a quantity that does not fit a new type', async () => {
    const { actor, exec } = sut({ alarm: { type: 'threshold', quantity: 'heat-energy' } });
    await exec({ type: 'wizard.goto', step: 1 } as never);
    await exec({ type: 'wizard.type', alarmType: 'indoor_climate' } as never);
    expect(actor.getSnapshot().context.draft.quantity).toBeNull();
  });

  it('takes minimum and maximum for indoor climate and checks their order', () => {
    const draft: AlarmDraft = {
      type: 'indoor_climate',
      quantity: 'indoor-temperature',
      frequency: 'day',
      threshold: null,
      minimum: null,
      maximum: null,
    };
    expect(thresholdError(draft)).toBe('climate_invalid');
    expect(thresholdError({ ...draft, minimum: 18 })).toBeNull();
    expect(thresholdError({ ...draft, maximum: 24 })).toBeNull();
    expect(thresholdError({ ...draft, minimum: 18, maximum: 24 })).toBeNull();
    expect(thresholdError({ ...draft, minimum: 24, maximum: 24 })).toBe('threshold_bounds');
    expect(thresholdError({ ...draft, type: 'threshold', threshold: -1 })).toBe('threshold_invalid');
    expect(thresholdError({ ...draft, type: 'threshold', threshold: 0 })).toBeNull();
  });

  it('refuses limits outside their range: humidity 0–100 %, a room temperature, an amount, a percentage', () => {
    const humidity: AlarmDraft = {
      type: 'indoor_climate',
      quantity: 'indoor-relative-humidity',
      frequency: 'day',
      threshold: null,
      minimum: null,
      maximum: null,
    };
    expect(thresholdError({ ...humidity, maximum: 100 })).toBeNull();
    expect(thresholdError({ ...humidity, maximum: 101 })).toBe('threshold_range');
    expect(thresholdError({ ...humidity, minimum: -1 })).toBe('threshold_range');
    expect(thresholdError({ ...humidity, quantity: 'indoor-temperature', maximum: 61 })).toBe(
      'threshold_range',
    );
    const amount: AlarmDraft = { ...humidity, type: 'threshold', quantity: 'heat-energy' };
    expect(thresholdError({ ...amount, threshold: 1_000_000 })).toBeNull();
    expect(thresholdError({ ...amount, threshold: 1e7 })).toBe('threshold_range');
    expect(thresholdError({ ...amount, type: 'comparison', threshold: 10_001 })).toBe('threshold_range');
  });

  it('reads "12,5" as 12.5 and shows a saved 12.5 as "12,5" in Danish and Norwegian', () => {
    expect(parseDecimal('12,5', true)).toBe(12.5);
    expect(parseDecimal('12,5')).toBe(12.5);
    expect(parseDecimal('1.250,5', true)).toBe(1250.5);
    expect(parseDecimal('1 250,5', true)).toBe(1250.5);
    expect(parseDecimal('1,250.5')).toBe(1250.5);
    expect(parseDecimal('1.2.3', true)).toBeNull();
    const { actor } = sut({
      step: 4,
      alarm: { type: 'threshold', quantity: 'heat-energy', frequency: 'day', threshold: 12.5 },
      decimalComma: true,
    });
    expect(actor.getSnapshot().context.thresholdText).toBe('12,5');
    actor.send({ type: 'wizard.threshold', value: '1.000,5' });
    expect(actor.getSnapshot().context.draft.threshold).toBe(1000.5);
  });

  it('treats fields given as undefined as unset, never as bounds or "undefined" text', () => {
    const { actor } = sut({
      alarm: {
        type: 'indoor_climate',
        quantity: 'indoor-temperature',
        minimum: undefined,
        maximum: undefined,
      },
    });
    const { draft, minimumText, maximumText } = actor.getSnapshot().context;
    expect(draft.minimum).toBeNull();
    expect(draft.maximum).toBeNull();
    expect([minimumText, maximumText]).toEqual(['', '']);
    expect(thresholdError(draft)).toBe('climate_invalid');
  });

  it('opens the step of ?step=N only when the earlier steps are done', () => {
    expect(sut({ step: '3' }).actor.getSnapshot().value).toEqual({ steps: 'type' });
    const full: Partial<AlarmDraft> = {
      type: 'threshold',
      quantity: 'heat-energy',
      frequency: 'week',
      threshold: 10,
    };
    expect(sut({ step: '3', alarm: full }).actor.getSnapshot().value).toEqual({ steps: 'frequency' });
    expect(sut({ step: 'garbage', alarm: full }).actor.getSnapshot().value).toEqual({ steps: 'type' });
    expect(sut({ step: '5', alarm: { type: 'threshold' } }).actor.getSnapshot().value).toEqual({
      steps: 'quantity',
    });
  });

  it('follows browser back and forward to reachable steps only', async () => {
    const { actor, exec, shown } = sut();
    await fill(exec, { type: 'wizard.type', alarmType: 'threshold' }, { type: 'wizard.next' });
    await exec({ type: 'wizard.goto', step: 4 } as never);
    expect(actor.getSnapshot().value).toEqual({ steps: 'quantity' });
    await exec({ type: 'wizard.goto', step: 1 } as never);
    expect(actor.getSnapshot().value).toEqual({ steps: 'type' });
    await exec({ type: 'wizard.goto', step: 2 } as never);
    expect(actor.getSnapshot().value).toEqual({ steps: 'quantity' });
    expect(shown).toEqual([1, 2, 1, 2]);
  });

  it('reads decimals with a comma or a dot and never gives NaN', () => {
    expect(parseDecimal('12,5')).toBe(12.5);
    expect(parseDecimal(' 1 000.25 ')).toBe(1000.25);
    expect(parseDecimal('-3')).toBe(-3);
    expect(parseDecimal('.5')).toBe(0.5);
    for (const bad of ['', 'abc', '1,2,3', '1e5', 'NaN', 'Infinity', '12,'])
      expect(parseDecimal(bad)).toBeNull();
  });

  it('reads ?step=N safely', () => {
    expect(parseStepParam('1')).toBe(1);
    expect(parseStepParam(5)).toBe(5);
    for (const bad of ['0', '6', '2.5', 'x', null, undefined, -1]) expect(parseStepParam(bad)).toBeNull();
  });

  it('reports how far a draft reaches', () => {
    expect(
      furthestStep({
        type: null,
        quantity: null,
        frequency: null,
        threshold: null,
        minimum: null,
        maximum: null,
      }),
    ).toBe(1);
    expect(
      furthestStep({
        type: 'threshold',
        quantity: 'indoor-temperature',
        frequency: 'day',
        threshold: 1,
        minimum: null,
        maximum: null,
      }),
    ).toBe(2);
  });
});

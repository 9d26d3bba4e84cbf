/**
 * Guard boundaries of the period picker and the alarm wizard: for every guard, the last input that passes and the
 * first that does not, with the state and context written out by hand, so a guard moved by one fails here.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { type AlarmDraft, alarmWizardMachine } from '../../src/machines/alarmWizard.machine.ts';
import { type PeriodInput, periodMachine } from '../../src/machines/period.machine.ts';
import { Deferreds } from './harness.ts';

describe('period guards', () => {
  const TODAY = '2025-03-19';
  const LAST_30 = { startDate: '2025-02-18', endDate: '2025-03-19' };
  const periodActor = (input: PeriodInput = { today: TODAY }) =>
    createActor(periodMachine, { input }).start();
  const stored = (startDate: string, endDate: string) => ({ period: JSON.stringify({ startDate, endDate }) });

  it('canStepNext: 30 days step on the day the next span starts, not the day before', () => {
    const onTheDay = periodActor({ today: '2025-03-20', stored: stored('2025-02-18', '2025-03-19') });
    onTheDay.send({ type: 'period.next' });
    expect(onTheDay.getSnapshot().context.period).toEqual({ startDate: '2025-03-20', endDate: '2025-04-18' });

    const dayBefore = periodActor({ today: '2025-03-19', stored: stored('2025-02-18', '2025-03-19') });
    dayBefore.send({ type: 'period.next' });
    expect(dayBefore.getSnapshot().context.period).toEqual(LAST_30);
  });

  it('canStepNext: a year steps on 1 January, not on 31 December', () => {
    const newYear = periodActor({ today: '2026-01-01', stored: stored('2025-01-01', '2025-12-31') });
    newYear.send({ type: 'period.next' });
    expect(newYear.getSnapshot().context).toMatchObject({
      period: { startDate: '2026-01-01', endDate: '2026-12-31' },
      kind: 'year',
    });

    const eve = periodActor({ today: '2025-12-31', stored: stored('2025-01-01', '2025-12-31') });
    eve.send({ type: 'period.next' });
    expect(eve.getSnapshot().context.period).toEqual({ startDate: '2025-01-01', endDate: '2025-12-31' });
  });

  const custom = (startDate: string, endDate: string) => {
    const actor = periodActor();
    actor.send({ type: 'period.customOpen' });
    actor.send({ type: 'period.custom', startDate, endDate });
    return actor.getSnapshot();
  };

  it('isCustomValid: a one-day range (start = end) is taken', () => {
    const snap = custom('2025-03-05', '2025-03-05');
    expect(snap.value).toBe('ready');
    expect(snap.context).toMatchObject({
      period: { startDate: '2025-03-05', endDate: '2025-03-05' },
      kind: 'day',
      preset: 'custom',
      customError: null,
    });
  });

  it('isCustomValid: a start one day after the end is refused and the period stays', () => {
    const snap = custom('2025-03-06', '2025-03-05');
    expect(snap.value).toBe('choosingCustom');
    expect(snap.context).toMatchObject({ period: LAST_30, customError: 'period_start_after_end' });
  });

  it('isCustomValid: 29 February is a date in 2024 and not in 2025', () => {
    expect(custom('2024-02-29', '2024-03-01').value).toBe('ready');
    const snap = custom('2025-02-29', '2025-03-01');
    expect(snap.value).toBe('choosingCustom');
    expect(snap.context).toMatchObject({ period: LAST_30, customError: 'period_invalid_date' });
  });

  it('isCustomPreset and isChoosablePreset: custom opens the range form, a preset applies, anything else is ignored', () => {
    const open = periodActor();
    open.send({ type: 'period.preset', preset: 'custom' });
    expect(open.getSnapshot().value).toBe('choosingCustom');
    expect(open.getSnapshot().context.period).toEqual(LAST_30);

    const today = periodActor();
    today.send({ type: 'period.preset', preset: 'today' });
    expect(today.getSnapshot().value).toBe('ready');
    expect(today.getSnapshot().context).toMatchObject({
      period: { startDate: TODAY, endDate: TODAY },
      preset: 'today',
    });

    const bogus = periodActor();
    bogus.send({ type: 'period.preset', preset: 'Today' as never });
    expect(bogus.getSnapshot().value).toBe('ready');
    expect(bogus.getSnapshot().context).toMatchObject({ period: LAST_30, preset: 'last_30_days' });
  });

  it('isChoosablePreset while choosing a range: a preset closes the form, custom keeps it open', () => {
    const preset = periodActor();
    preset.send({ type: 'period.customOpen' });
    preset.send({ type: 'period.preset', preset: 'last_month' });
    expect(preset.getSnapshot().value).toBe('ready');
    expect(preset.getSnapshot().context.period).toEqual({ startDate: '2025-02-01', endDate: '2025-02-28' });

    const again = periodActor();
    again.send({ type: 'period.customOpen' });
    again.send({ type: 'period.preset', preset: 'custom' });
    expect(again.getSnapshot().value).toBe('choosingCustom');
    expect(again.getSnapshot().context.period).toEqual(LAST_30);
  });

  it('isLanguage: nb is taken, sv (not offered) is ignored', () => {
    const actor = periodActor();
    actor.send({ type: 'language.change', language: 'nb' });
    expect(actor.getSnapshot().context.language).toBe('nb');
    actor.send({ type: 'language.change', language: 'sv' as never });
    expect(actor.getSnapshot().context.language).toBe('nb');
  });

  it('isComparison: last_period is taken, a misspelt value is ignored', () => {
    const actor = periodActor();
    actor.send({ type: 'comparison.change', comparison: 'last_period' });
    expect(actor.getSnapshot().context.comparison).toBe('last_period');
    actor.send({ type: 'comparison.change', comparison: 'Property' as never });
    expect(actor.getSnapshot().context.comparison).toBe('last_period');
  });
});

describe('alarmWizard guards', () => {
  const wizard = (input?: { step?: unknown; alarm?: Partial<AlarmDraft> }) => {
    const deferreds = new Deferreds();
    const actor = createActor(
      alarmWizardMachine.provide({ actors: { saveAlarm: deferreds.actor as never } }),
      {
        input,
      },
    ).start();
    return { actor, deferreds, step: () => (actor.getSnapshot().value as { steps?: string }).steps };
  };
  const toFrequency = { type: 'threshold', quantity: 'heat-energy' } as const;
  const toThreshold = { ...toFrequency, frequency: 'month' } as const;
  const complete = { ...toThreshold, threshold: 0 } as const;

  it('hasType: next needs a type', () => {
    const none = wizard();
    none.actor.send({ type: 'wizard.next' });
    expect(none.step()).toBe('type');
    const chosen = wizard();
    chosen.actor.send({ type: 'wizard.type', alarmType: 'comparison' });
    chosen.actor.send({ type: 'wizard.next' });
    expect(chosen.step()).toBe('quantity');
    expect(chosen.actor.getSnapshot().context.draft.type).toBe('comparison');
  });

  it('hasQuantity: next needs a quantity of the chosen type', () => {
    const fits = wizard({ step: 2, alarm: { type: 'threshold', quantity: 'heat-energy' } });
    expect(fits.step()).toBe('quantity');
    fits.actor.send({ type: 'wizard.next' });
    expect(fits.step()).toBe('frequency');

    // A stored indoor-climate alarm with a consumption quantity: the quantity does not count.
    const misfit = wizard({ step: 2, alarm: { type: 'indoor_climate', quantity: 'heat-energy' } });
    misfit.actor.send({ type: 'wizard.next' });
    expect(misfit.step()).toBe('quantity');
    const none = wizard({ step: 2, alarm: { type: 'threshold' } });
    none.actor.send({ type: 'wizard.next' });
    expect(none.step()).toBe('quantity');
  });

  it('hasFrequency: next needs a frequency', () => {
    const none = wizard({ step: 3, alarm: toFrequency });
    expect(none.step()).toBe('frequency');
    none.actor.send({ type: 'wizard.next' });
    expect(none.step()).toBe('frequency');
    none.actor.send({ type: 'wizard.frequency', frequency: 'year' });
    none.actor.send({ type: 'wizard.next' });
    expect(none.step()).toBe('threshold');
  });

  const atThreshold = (alarm: Partial<AlarmDraft>) => wizard({ step: 4, alarm });

  it('isThresholdValid: 0 is a threshold, -0,01 is not', () => {
    const zero = atThreshold(toThreshold);
    zero.actor.send({ type: 'wizard.threshold', value: '0' });
    zero.actor.send({ type: 'wizard.next' });
    expect(zero.step()).toBe('review');
    expect(zero.actor.getSnapshot().context.draft.threshold).toBe(0);

    const below = atThreshold(toThreshold);
    below.actor.send({ type: 'wizard.threshold', value: '-0,01' });
    below.actor.send({ type: 'wizard.next' });
    expect(below.step()).toBe('threshold');
    expect(below.actor.getSnapshot().context).toMatchObject({
      thresholdError: 'threshold_invalid',
      draft: { threshold: -0.01 },
    });
  });

  it('isThresholdValid: indoor climate needs the minimum below the maximum, by any margin', () => {
    const indoor = { type: 'indoor_climate', quantity: 'indoor-temperature', frequency: 'day' } as const;
    const apart = atThreshold(indoor);
    apart.actor.send({ type: 'wizard.minimum', value: '18' });
    apart.actor.send({ type: 'wizard.maximum', value: '18,1' });
    apart.actor.send({ type: 'wizard.next' });
    expect(apart.step()).toBe('review');

    const equal = atThreshold(indoor);
    equal.actor.send({ type: 'wizard.minimum', value: '18' });
    equal.actor.send({ type: 'wizard.maximum', value: '18' });
    equal.actor.send({ type: 'wizard.next' });
    expect(equal.step()).toBe('threshold');
    expect(equal.actor.getSnapshot().context.thresholdError).toBe('threshold_bounds');

    const neither = atThreshold(indoor);
    neither.actor.send({ type: 'wizard.next' });
    expect(neither.step()).toBe('threshold');
    expect(neither.actor.getSnapshot().context.thresholdError).toBe('climate_invalid');
  });

  it('isThresholdEditable and isIndoorClimate: each type takes only its own fields', () => {
    const comparison = atThreshold({ ...toThreshold, type: 'comparison' });
    comparison.actor.send({ type: 'wizard.threshold', value: '25' });
    comparison.actor.send({ type: 'wizard.minimum', value: '1' });
    expect(comparison.actor.getSnapshot().context).toMatchObject({
      thresholdText: '25',
      minimumText: '',
      draft: { threshold: 25, minimum: null },
    });

    const indoor = atThreshold({ type: 'indoor_climate', quantity: 'indoor-temperature', frequency: 'day' });
    indoor.actor.send({ type: 'wizard.threshold', value: '25' });
    indoor.actor.send({ type: 'wizard.maximum', value: '24' });
    expect(indoor.actor.getSnapshot().context).toMatchObject({
      thresholdText: '',
      maximumText: '24',
      draft: { threshold: null, maximum: 24 },
    });

    const zero = atThreshold({ ...toThreshold, type: 'zero_consumption', quantity: 'cold-water-volume' });
    zero.actor.send({ type: 'wizard.threshold', value: '5' });
    expect(zero.actor.getSnapshot().context).toMatchObject({ thresholdText: '0', draft: { threshold: 0 } });
  });

  it('isValidType, isValidQuantity, isValidFrequency: known values only', () => {
    const { actor } = wizard();
    actor.send({ type: 'wizard.type', alarmType: 'Threshold' as never });
    expect(actor.getSnapshot().context.draft.type).toBeNull();
    actor.send({ type: 'wizard.type', alarmType: 'indoor_climate' });
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'wizard.quantity', quantity: 'heat-energy' });
    expect(actor.getSnapshot().context.draft.quantity).toBeNull();
    actor.send({ type: 'wizard.quantity', quantity: 'indoor-temperature' });
    expect(actor.getSnapshot().context.draft.quantity).toBe('indoor-temperature');
    actor.send({ type: 'wizard.next' });
    actor.send({ type: 'wizard.frequency', frequency: 'hour' as never });
    expect(actor.getSnapshot().context.draft.frequency).toBeNull();
    actor.send({ type: 'wizard.frequency', frequency: 'day' });
    expect(actor.getSnapshot().context.draft.frequency).toBe('day');
  });

  it('isOpeningStep: ?step=N opens N when the steps before it are done, else the furthest open step', () => {
    expect(wizard({ step: 4, alarm: toThreshold }).step()).toBe('threshold');
    expect(wizard({ step: 5, alarm: toThreshold }).step()).toBe('threshold');
    expect(wizard({ step: 4, alarm: toFrequency }).step()).toBe('frequency');
    expect(wizard({ step: 5, alarm: complete }).step()).toBe('review');
    expect(wizard({ step: 3, alarm: complete }).step()).toBe('frequency');
  });

  it('canGoto: the furthest open step can be opened, the one after it cannot', () => {
    const { actor, step } = wizard({ step: 3, alarm: toThreshold });
    expect(step()).toBe('frequency');
    actor.send({ type: 'wizard.goto', step: 5 });
    expect(step()).toBe('frequency');
    actor.send({ type: 'wizard.goto', step: 4 });
    expect(step()).toBe('threshold');
    actor.send({ type: 'wizard.goto', step: 1 });
    expect(step()).toBe('type');
  });

  it('isDraftComplete: a complete draft is saved as it stands', () => {
    const { actor, deferreds } = wizard({ step: 5, alarm: complete });
    actor.send({ type: 'wizard.submit' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(deferreds.input('saveAlarm')).toEqual({
      type: 'threshold',
      quantity: 'heat-energy',
      frequency: 'month',
      threshold: 0,
      minimum: null,
      maximum: null,
    });
  });
});

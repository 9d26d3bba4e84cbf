/**
 * Guard boundaries of the meter swap (meterSwap.machine.ts): for atInPeriod and readingsComplete, the last input
 * that passes and the first that does not, with the state and context written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { type MeterSwapInput, meterSwapMachine } from '../../src/machines/meterSwap.machine.ts';

const INPUT: MeterSwapInput = {
  meterId: '7',
  meterNumber: 'OLD-1',
  installedAt: '2024-01-01T00:00:00.000Z',
  lastReadingAt: '2025-02-01T00:00:00.000Z',
  now: '2025-03-10T00:00:00.000Z',
};
const COMPLETE = { newMeter: 'NEW-1', startValue: '0', endValue: '' };

function submit(
  atIso: string,
  fields: Partial<Record<'newMeter' | 'startValue' | 'endValue', string>> = COMPLETE,
  input: MeterSwapInput = INPUT,
) {
  const actor = createActor(meterSwapMachine, { input }).start();
  actor.send({ type: 'at.change', local: 'x', iso: atIso });
  for (const [field, value] of Object.entries({ ...COMPLETE, ...fields })) {
    actor.send({ type: 'field.change', field: field as 'newMeter', value });
  }
  actor.send({ type: 'submit' });
  const snap = actor.getSnapshot();
  return { value: snap.value, error: snap.context.error };
}

const PASSES = { value: 'confirming', error: null };
const TIME_OUTSIDE = { value: 'editing', error: 'SWAP_TIME_OUTSIDE' };
const INCOMPLETE = { value: 'editing', error: 'SWAP_INCOMPLETE' };

describe('atInPeriod', () => {
  const noReadings = { ...INPUT, lastReadingAt: null };
  it('one millisecond after the installation passes; the installation instant does not', () => {
    expect(submit('2024-01-01T00:00:00.001Z', COMPLETE, noReadings)).toEqual(PASSES);
    expect(submit('2024-01-01T00:00:00.000Z', COMPLETE, noReadings)).toEqual(TIME_OUTSIDE);
  });
  it('at the newest reading passes; one millisecond before it does not', () => {
    expect(submit('2025-02-01T00:00:00.000Z')).toEqual(PASSES);
    expect(submit('2025-01-31T23:59:59.999Z')).toEqual(TIME_OUTSIDE);
  });
  it('now passes; one millisecond later does not', () => {
    expect(submit('2025-03-10T00:00:00.000Z')).toEqual(PASSES);
    expect(submit('2025-03-10T00:00:00.001Z')).toEqual(TIME_OUTSIDE);
  });
  it('an empty time (the field not filled in) does not pass', () => {
    expect(submit('')).toEqual(TIME_OUTSIDE);
  });
});

describe('readingsComplete', () => {
  const AT = '2025-03-01T00:00:00.000Z';
  it('a new number unlike the old passes; the old number, even with spaces, does not; nor an empty one', () => {
    expect(submit(AT, { newMeter: 'OLD-2' })).toEqual(PASSES);
    expect(submit(AT, { newMeter: ' OLD-1 ' })).toEqual(INCOMPLETE);
    expect(submit(AT, { newMeter: '  ' })).toEqual(INCOMPLETE);
  });
  it('a start reading of 0 or 1,5 passes; empty, "1." and "-1" do not', () => {
    expect(submit(AT, { startValue: '0' })).toEqual(PASSES);
    expect(submit(AT, { startValue: '1,5' })).toEqual(PASSES);
    expect(submit(AT, { startValue: '' })).toEqual(INCOMPLETE);
    expect(submit(AT, { startValue: '1.' })).toEqual(INCOMPLETE);
    expect(submit(AT, { startValue: '-1' })).toEqual(INCOMPLETE);
  });
  it('an end reading may be empty or a number; text does not pass', () => {
    expect(submit(AT, { endValue: '' })).toEqual(PASSES);
    expect(submit(AT, { endValue: '12345.6' })).toEqual(PASSES);
    expect(submit(AT, { endValue: '12 345' })).toEqual(INCOMPLETE);
  });
  it('the time is checked first: a bad time and a bad number give the time’s error', () => {
    expect(submit('2023-01-01T00:00:00.000Z', { startValue: '' })).toEqual(TIME_OUTSIDE);
  });
});

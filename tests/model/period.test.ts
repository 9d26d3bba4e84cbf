import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import {
  initialComparison,
  PERIOD_STORAGE_KEYS,
  type PeriodInput,
  type PeriodStorage,
  type PersistedPeriod,
  periodMachine,
  readStoredPeriod,
  writePersistedPeriod,
} from '../../src/machines/period.machine.ts';
import { executor, type Outcomes, replay } from './harness.ts';

const TODAY = '2025-03-19';
const input: PeriodInput = { today: TODAY };

// Data events with valid and invalid payloads.
const events = [
  { type: 'period.preset', preset: 'last_month' },
  { type: 'period.preset', preset: 'this_year' },
  { type: 'period.preset', preset: 'custom' },
  { type: 'period.preset', preset: 'bogus' },
  { type: 'period.customOpen' },
  { type: 'period.customCancel' },
  { type: 'period.custom', startDate: '2025-03-01', endDate: '2025-03-10' },
  { type: 'period.custom', startDate: '2025-03-10', endDate: '2025-03-01' },
  { type: 'period.custom', startDate: '2025-02-30', endDate: '2025-03-01' },
  { type: 'period.previous' },
  { type: 'period.next' },
  { type: 'comparison.change', comparison: 'last_period' },
  { type: 'comparison.change', comparison: 'bogus' },
  { type: 'hourly.change', hasHourlyData: true },
  { type: 'language.change', language: 'da' },
  { type: 'language.change', language: 'sv' },
] as const;

const INITIAL = { startDate: '2025-02-18', endDate: '2025-03-19' };
const isInitial = (period: { startDate: string; endDate: string }) =>
  period.startDate === INITIAL.startDate && period.endDate === INITIAL.endDate;

// Stepping back is unbounded, so the walk stops at a horizon. Comparison, hourly data, language and the invalid
// payloads are tried from the initial period only, and a changed comparison, hourly flag or language ends the walk:
// they are orthogonal to stepping, and crossing them with every period would multiply the paths without new checks.
const model = createTestModel(periodMachine, {
  input,
  events: events as never,
  limit: 5000,
  stopWhen: (s) =>
    s.context.period.startDate < '2025-02-01' ||
    s.context.comparison !== 'property' ||
    s.context.hasHourlyData ||
    s.context.language !== 'en',
  filterEvents: (s, e) => {
    const initial = isInitial(s.context.period);
    if (e.type === 'comparison.change' || e.type === 'hourly.change' || e.type === 'language.change')
      return initial;
    if (e.type === 'period.custom' && e.startDate !== '2025-03-01') return initial;
    if (e.type === 'period.preset' && (e.preset as string) === 'bogus') return initial;
    return true;
  },
});
const paths = model.getShortestPaths({ limit: 5000 });

function sut(actorInput: PeriodInput = input) {
  const persisted: PersistedPeriod[] = [];
  const actor = createActor(
    periodMachine.provide({
      actions: {
        persist: (_, params) => {
          persisted.push(params);
        },
      },
    }),
    { input: actorInput },
  ).start();
  return { actor, persisted };
}

type Context = ReturnType<typeof periodMachine.getInitialSnapshot>['context'];

/** SPEC §3, §4 (written by hand): a period never starts after today nor ends before it starts. */
const wellFormed = (c: Context) => {
  expect(c.period.startDate <= TODAY).toBe(true);
  expect(c.period.startDate <= c.period.endDate).toBe(true);
  expect(['property', 'last_period']).toContain(c.comparison);
  expect(['en', 'da']).toContain(c.language);
};
const outcomes: Outcomes<Context> = [
  [
    'ready',
    (c) => {
      wellFormed(c);
      expect(c.customError).toBeNull();
    },
  ],
  [
    'choosingCustom',
    (c) => {
      wellFormed(c);
      expect([null, 'period_invalid_date', 'period_start_after_end']).toContain(c.customError);
    },
  ],
];

describe('period model', () => {
  it('has the expected number of shortest paths', () => {
    // 36 states without the language; 'da' adds one from each of the 4 states on the initial period
    // (ready, and choosing a custom range with no error or either error).
    expect(paths).toHaveLength(40);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const { actor, persisted } = sut();
      await replay(path, actor, executor(actor), outcomes);
      const { period, spanType, comparison } = actor.getSnapshot().context;
      if (persisted.length > 0) expect(persisted.at(-1)).toEqual({ period, spanType, comparison });
    });
  }
});

describe('period details', () => {
  it('starts with the last 30 days, compared with the property', () => {
    const { actor } = sut();
    expect(actor.getSnapshot().context).toMatchObject({
      period: { startDate: '2025-02-18', endDate: '2025-03-19' },
      preset: 'last_30_days',
      comparison: 'property',
      spanType: 'day',
      kind: 'month',
      language: 'en',
      label: { key: 'periods.label.last_30_days', values: {} },
    });
  });

  it('derives the label in the chosen language and keeps it in step with the period', () => {
    const { actor, persisted } = sut({ today: TODAY, language: 'nb-NO' });
    expect(actor.getSnapshot().context.language).toBe('nb');
    actor.send({ type: 'period.preset', preset: 'last_month' });
    expect(actor.getSnapshot().context.label).toEqual({
      key: 'periods.label.month',
      values: { month: 'februar 2025' },
    });
    actor.send({ type: 'language.change', language: 'en' });
    expect(actor.getSnapshot().context.label.values).toEqual({ month: 'February 2025' });
    actor.send({ type: 'period.previous' });
    expect(actor.getSnapshot().context.label.values).toEqual({ month: 'January 2025' });
    actor.send({ type: 'period.preset', preset: 'this_year' });
    expect(actor.getSnapshot().context.label).toEqual({
      key: 'periods.label.year',
      values: { year: '2025' },
    });
    actor.send({ type: 'period.customOpen' });
    actor.send({ type: 'period.custom', startDate: '2025-03-03', endDate: '2025-03-09' });
    expect(actor.getSnapshot().context.label).toEqual({
      key: 'periods.label.custom',
      values: { start: '3 Mar 2025', end: '9 Mar 2025' },
    });
    const writes = persisted.length;
    actor.send({ type: 'language.change', language: 'sv' as never });
    expect(actor.getSnapshot().context.language).toBe('en');
    expect(persisted).toHaveLength(writes);
    expect(sut({ today: TODAY, language: 42 }).actor.getSnapshot().context.language).toBe('en');
  });

  it('restores a stored period and comparison, and falls back on garbled values', () => {
    const stored = sut({
      today: TODAY,
      stored: { period: '{"startDate":"2025-01-01","endDate":"2025-01-31"}', comparison: 'last_period' },
    });
    expect(stored.actor.getSnapshot().context).toMatchObject({
      period: { startDate: '2025-01-01', endDate: '2025-01-31' },
      comparison: 'last_period',
      preset: 'custom',
    });
    const garbled = sut({ today: TODAY, stored: { period: '{"startDate":"2025-13-01"', comparison: 7 } });
    expect(garbled.actor.getSnapshot().context.period).toEqual({
      startDate: '2025-02-18',
      endDate: '2025-03-19',
    });
    expect(garbled.actor.getSnapshot().context.comparison).toBe('property');
  });

  it('stores under the SPEC §3 keys and restores from them', () => {
    const map = new Map<string, string>();
    const storage: PeriodStorage = {
      getItem: (key) => map.get(key) ?? null,
      setItem: (key, value) => {
        map.set(key, value);
      },
    };
    const first = createActor(
      periodMachine.provide({ actions: { persist: (_, params) => writePersistedPeriod(storage, params) } }),
      { input: { today: TODAY, hasHourlyData: true } },
    ).start();
    first.send({ type: 'period.preset', preset: 'today' });
    first.send({ type: 'comparison.change', comparison: 'last_period' });
    expect(Object.fromEntries(map)).toEqual({
      [PERIOD_STORAGE_KEYS.period]: '{"startDate":"2025-03-19","endDate":"2025-03-19"}',
      [PERIOD_STORAGE_KEYS.spanType]: 'hour',
      [PERIOD_STORAGE_KEYS.comparison]: 'last_period',
    });
    const again = sut({ today: TODAY, hasHourlyData: true, stored: readStoredPeriod(storage) });
    expect(again.actor.getSnapshot().context).toMatchObject({
      period: { startDate: '2025-03-19', endDate: '2025-03-19' },
      comparison: 'last_period',
      spanType: 'hour',
      preset: 'today',
    });
  });

  it('falls back when storage is garbled or unavailable', () => {
    const garbled: PeriodStorage = {
      getItem: (key) => (key === PERIOD_STORAGE_KEYS.period ? 'Invalid Date' : 'NaN'),
      setItem: () => {},
    };
    const blocked: PeriodStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readStoredPeriod(blocked)).toEqual({ period: null, comparison: null });
    expect(() =>
      writePersistedPeriod(blocked, { period: INITIAL, spanType: 'day', comparison: 'property' }),
    ).not.toThrow();
    for (const storage of [garbled, blocked]) {
      const { actor } = sut({ today: TODAY, stored: readStoredPeriod(storage) });
      expect(actor.getSnapshot().context).toMatchObject({ period: INITIAL, comparison: 'property' });
    }
  });

  it('compares with the last period on room and meter pages', () => {
    expect(initialComparison('room', 'property')).toBe('last_period');
    expect(initialComparison('meter', undefined)).toBe('last_period');
    expect(initialComparison('default', 'last_period')).toBe('last_period');
    expect(initialComparison('default', 'nonsense')).toBe('property');
    const { actor } = sut({ today: TODAY, page: 'room', stored: { comparison: 'property' } });
    expect(actor.getSnapshot().context.comparison).toBe('last_period');
  });

  it('gives hour for today with hourly data, and steps a month by the calendar', () => {
    const { actor } = sut({ today: TODAY, hasHourlyData: true });
    actor.send({ type: 'period.preset', preset: 'today' });
    expect(actor.getSnapshot().context).toMatchObject({ spanType: 'hour', kind: 'day' });
    actor.send({ type: 'period.preset', preset: 'last_month' });
    actor.send({ type: 'period.previous' });
    expect(actor.getSnapshot().context.period).toEqual({ startDate: '2025-01-01', endDate: '2025-01-31' });
    expect(actor.getSnapshot().can({ type: 'period.next' })).toBe(true);
    actor.send({ type: 'period.next' });
    actor.send({ type: 'period.next' });
    expect(actor.getSnapshot().context.period).toEqual({ startDate: '2025-03-01', endDate: '2025-03-31' });
    expect(actor.getSnapshot().can({ type: 'period.next' })).toBe(false);
  });

  it('steps to the next period only when it starts no later than today: on the day it starts, not the day before', () => {
    const march = JSON.stringify({ startDate: '2025-03-01', endDate: '2025-03-31' });
    // April starts today: the step is allowed and lands on April.
    const onTheDay = sut({ today: '2025-04-01', stored: { period: march } }).actor;
    expect(onTheDay.getSnapshot().context.period).toEqual({ startDate: '2025-03-01', endDate: '2025-03-31' });
    expect(onTheDay.getSnapshot().can({ type: 'period.next' })).toBe(true);
    onTheDay.send({ type: 'period.next' });
    expect(onTheDay.getSnapshot().context.period).toEqual({ startDate: '2025-04-01', endDate: '2025-04-30' });
    // April starts tomorrow: refused, and the period stays.
    const dayBefore = sut({ today: '2025-03-31', stored: { period: march } }).actor;
    expect(dayBefore.getSnapshot().can({ type: 'period.next' })).toBe(false);
    dayBefore.send({ type: 'period.next' });
    expect(dayBefore.getSnapshot().context.period).toEqual({
      startDate: '2025-03-01',
      endDate: '2025-03-31',
    });
  });

  it('explains a bad custom range and keeps the period', () => {
    const { actor } = sut();
    actor.send({ type: 'period.customOpen' });
    actor.send({ type: 'period.custom', startDate: '2025-03-10', endDate: '2025-03-01' });
    expect(actor.getSnapshot().value).toBe('choosingCustom');
    expect(actor.getSnapshot().context.customError).toBe('period_start_after_end');
    expect(actor.getSnapshot().context.period.endDate).toBe(TODAY);
  });

  it('refuses a bad today input with a clear error', () => {
    const actor = createActor(periodMachine, { input: { today: 'Invalid Date' } });
    const errors: unknown[] = [];
    actor.subscribe({ error: (e) => errors.push(e) });
    actor.start();
    expect(String(errors[0])).toMatch(/today "Invalid Date" is not an ISO date/);
  });
});

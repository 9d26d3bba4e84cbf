import { describe, expect, it } from 'vitest';
import { meterRowsInScope, roomRowOf } from '../../src/islands/consumption/quantityScope.ts';

/** A table row as tenantTable gives it: a meter (MPOINT) in a room, or a room (ROOM rows carry the unit). */
const row = (id: string, label: string | null, room: string | null, value: number | null) => ({
  label,
  values: [value],
  comparisonValues: [value === null ? null : value / 2],
  object: {
    id,
    kind: 'MPOINT' as const,
    unit: null,
    group: null,
    measurementPoint: room === null ? null : { id, name: `Meter ${id}`, room, quantity: 'hca' },
  },
});

const meters = [
  row('1', 'Living room', 'Living room', 10),
  row('2', 'Living room', 'Living room', 5),
  row('3', 'Bedroom', 'Bedroom', 7),
  row('4', 'Stue og køkken', 'Stue og køkken', 1),
];

describe('meterRowsInScope (the meter rows a quantity page shows)', () => {
  it('keeps every row on the unit page, a room’s rows by slug, and one meter by id', () => {
    expect(meterRowsInScope(meters, { kind: 'unit' })).toEqual(meters);
    expect(meterRowsInScope(meters, { kind: 'room', slug: 'living-room' }).map((r) => r.object.id)).toEqual([
      '1',
      '2',
    ]);
    expect(
      meterRowsInScope(meters, { kind: 'room', slug: 'stue-og-kokken' }).map((r) => r.object.id),
    ).toEqual(['4']);
    expect(meterRowsInScope(meters, { kind: 'meter', id: '3' }).map((r) => r.object.id)).toEqual(['3']);
  });

  it('finds nothing for a room or meter the unit does not have', () => {
    expect(meterRowsInScope(meters, { kind: 'room', slug: 'attic' })).toEqual([]);
    expect(meterRowsInScope(meters, { kind: 'meter', id: '99' })).toEqual([]);
  });
});

describe('roomRowOf (a room page’s total, as the server aggregates the room)', () => {
  // ROOM rows: one per room, and one (label null) for the points without a room.
  const rooms = [row('u', 'Bedroom', null, 7), row('u', 'Living room', null, 15), row('u', null, null, 3)];

  it('takes the room’s own row, not a sum of its meters', () => {
    expect(roomRowOf(rooms, 'living-room')).toBe(rooms[1]);
    expect(roomRowOf(rooms, 'bedroom')?.values).toEqual([7]);
  });

  it('is null for an unknown slug, and never matches the points without a room', () => {
    expect(roomRowOf(rooms, 'attic')).toBeNull();
    expect(roomRowOf(rooms, '')).toBeNull();
  });
});

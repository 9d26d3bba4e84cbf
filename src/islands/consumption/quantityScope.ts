/** Which objects a quantity page is about (the unit, one room or one meter), and its rows of the unit's tables. */
import type { TenantTableQuery } from '../../client/gql/tenant.ts';
import { roomSlug } from './graphModel.ts';

/** The unit page, a room page (by the room's slug) or a meter page (by the measurement point's id). */
export type Scope = { kind: 'unit' } | { kind: 'room'; slug: string } | { kind: 'meter'; id: string };

type TableRow = TenantTableQuery['tenantTable']['rows'][number];

/** The unit table's meter rows the page shows: all of them, a room's, or the one meter's. */
export function meterRowsInScope<R extends TableRow>(rows: readonly R[], scope: Scope): R[] {
  if (scope.kind === 'room')
    return rows.filter((r) => roomSlug(r.object.measurementPoint?.room ?? r.label ?? '') === scope.slug);
  if (scope.kind === 'meter') return rows.filter((r) => r.object.id === scope.id);
  return [...rows];
}

/**
 * The room's row of a per-room table (`rows: ROOM`): its total and comparison as the server aggregates them (sum,
 * or the average over all the room's readings), the same figure as the unit page's room list. Null when no room
 * has this slug.
 */
export function roomRowOf<R extends TableRow>(rows: readonly R[], slug: string): R | null {
  return rows.find((r) => r.label !== null && roomSlug(r.label) === slug) ?? null;
}

/**
 * What a quantity page asks the server, from the period, the quantity, the scope and the view options: the unit's
 * meter table (the page's rows; for room and meter pages also where their objects come from), the room's row of
 * the per-room table on room pages, the graph, the unit's KPIs and a meter's first and last readout.
 */
import { useMemo } from 'react';
import { useReadoutMinMax } from '../../client/operations/readoutMinMax.ts';
import {
  type RelatedKind,
  type TenantGraphInput,
  useTenantGraph,
} from '../../client/operations/tenantGraph.ts';
import { type TenantTableInput, useTenantTable } from '../../client/operations/tenantTable.ts';
import { useUnitQuantityKpis } from '../../client/operations/unitQuantityKpis.ts';
import { toServerDates, toServerMinuteRange } from '../../lib/periods.ts';
import { meterRowsInScope, roomRowOf, type Scope } from './quantityScope.ts';
import type { PeriodState } from './usePeriod.ts';
import type { QuantityOptionsState } from './useQuantityOptions.ts';

type Inputs = {
  quantity: string;
  scope: Scope;
  /** The tenancy's unit (apartment); null until tenantUnits has answered. */
  unitId: string | null;
  /** SPEC Tenancy.id; null until the session has the tenancy. */
  tenancyId: string | null;
  period: PeriodState;
  options: QuantityOptionsState;
};

/** The page's queries; each is asked once what it needs is known. */
export function useQuantityQueries({ quantity, scope, unitId, tenancyId, period: state, options }: Inputs) {
  const { period, comparison, serverResolution: resolution } = state;
  const { graphType, normalized, lastYear, climateOn, estimateOn } = options;
  const dates = toServerDates(period);
  const compareWith = comparison === 'property' ? 'PROPERTY' : 'LAST_PERIOD';

  // The table of meters: the page's rows, and for room and meter pages where their objects come from.
  const tableInput: TenantTableInput | null = unitId
    ? { unitId, quantities: [quantity], ...dates, compareWith, rows: 'METER', graphType, normalized }
    : null;
  const table = useTenantTable(tableInput);
  const scopedRows = useMemo(() => meterRowsInScope(table.data?.rows ?? [], scope), [table.data, scope]);
  // A room's total and comparison as the server aggregates the room (not re-added here from its meters).
  const roomTable = useTenantTable(
    tableInput && scope.kind === 'room' ? { ...tableInput, rows: 'ROOM' } : null,
  );
  const roomRow = scope.kind === 'room' && roomTable.data ? roomRowOf(roomTable.data.rows, scope.slug) : null;

  const related: RelatedKind[] = [compareWith];
  if (lastYear) related.push('LAST_YEAR');
  const objects: TenantGraphInput['objects'] | null =
    scope.kind === 'unit'
      ? unitId
        ? [{ kind: 'UNIT', id: unitId }]
        : null
      : // A room or meter is asked for only once the unit's table lists it: an id from a stale or edited URL
        // gets the "not found" box instead of a refusal from the server.
        table.data
        ? scopedRows.map((r) => ({ kind: 'MPOINT' as const, id: r.object.id }))
        : null;
  const graphInput: TenantGraphInput | null =
    objects && objects.length > 0
      ? {
          graphType,
          resolution,
          ...toServerMinuteRange(period),
          objects,
          quantities: [quantity],
          normalized,
          related,
          ...(climateOn ? { climateCorrection: {} } : {}),
        }
      : null;
  const graph = useTenantGraph(graphInput);
  const kpis = useUnitQuantityKpis(
    unitId && scope.kind === 'unit'
      ? {
          unitId,
          quantities: [quantity],
          ...dates,
          graphType,
          normalized,
          ...(climateOn ? { climateCorrection: {} } : {}),
          ...(estimateOn ? { hcaKwhEstimate: true } : {}),
        }
      : null,
  );
  const meterNumber = scope.kind === 'meter' ? (scopedRows[0]?.object.group?.meter?.number ?? null) : null;
  const readout = useReadoutMinMax(
    meterNumber && tenancyId
      ? {
          tenancyId: Number(tenancyId),
          meterNumber,
          quantity,
          fromDate: dates.periodBegin,
          toDate: dates.periodEnd,
        }
      : null,
  );

  return {
    table,
    scopedRows,
    roomTable,
    roomRow,
    graphInput,
    graph,
    kpis,
    readout,
    /** Whether the tables the page asks for are still on their way. */
    tablesPending: table.isPending || (scope.kind === 'room' && roomTable.isPending),
    failure: graph.error ?? kpis.error ?? table.error ?? roomTable.error,
    refetch: () => {
      void graph.refetch();
      void kpis.refetch();
      void table.refetch();
      if (scope.kind === 'room') void roomTable.refetch();
    },
  };
}

/** What useQuantityQueries returns. */
export type QuantityQueries = ReturnType<typeof useQuantityQueries>;

/**
 * `tenantTable`: one row per meter (measurement point) or per room of a unit, one column per quantity, with a
 * comparison: the same row over the previous period (default), or the property's per-m² average scaled to the
 * unit and split by the row's share of the unit total. One SQL statement for all the numbers.
 */
import { z } from 'zod';
import { GRAPH_TYPES, QUANTITIES, type QuantityId } from '../../../lib/quantities.ts';
import { readDbOf, requireUserId } from '../../graphql/context.ts';
import { parseInput } from '../../graphql/errors.ts';
import { dbId, isoDate, quantityId } from '../consumption/common.ts';
import {
  checkedPeriod,
  checkGraphType,
  isOpen,
  loadUnit,
  type PointRow,
  previousPeriodOf,
  seriesCollector,
  totalQuery,
} from '../consumption/unitData.ts';
import { seriesTotals } from '../graph/series.ts';
import { currentMeters, pointObject, unitObject } from '../objects.ts';
import type { QueryResolvers, TableRow } from '../types.generated.ts';

const inputSchema = z.object({
  unitId: dbId,
  quantities: z.array(quantityId).min(1).max(10),
  periodBegin: isoDate,
  periodEnd: isoDate,
  compareWith: z.enum(['PROPERTY', 'LAST_PERIOD']).nullish(),
  rows: z.enum(['ROOM', 'METER']).nullish(),
  graphType: z.enum(GRAPH_TYPES).nullish(),
  normalized: z.boolean().nullish(),
});

interface RowPlan {
  label: string | null;
  point: PointRow | null;
  /** Per quantity: the points of this row. */
  points: PointRow[][];
}

export const tenantTable: NonNullable<QueryResolvers['tenantTable']> = async (_parent, args, ctx) => {
  const userId = requireUserId(ctx);
  const input = parseInput(inputSchema, args.table);
  const quantities = [...new Set(input.quantities)] as QuantityId[];
  const graphType = input.graphType ?? 'HOURLY_VALUES';
  checkGraphType(graphType, quantities);
  const compareWith = input.compareWith ?? 'LAST_PERIOD';
  const rowsBy = input.rows ?? 'METER';
  const period = checkedPeriod(input.periodBegin, input.periodEnd);
  const previous = previousPeriodOf(period);
  const db = ctx.db;
  // The caller and their access from the primary (`db`); the data from the read replica when set and fresh.
  const reads = readDbOf(ctx);

  const { access, points } = await loadUnit(db, userId, input.unitId, quantities);
  const propertyId = access.property.id;
  const meters =
    rowsBy === 'METER'
      ? await currentMeters(
          reads,
          points.map((p) => p.id),
        )
      : new Map();

  const rowPlans: RowPlan[] =
    rowsBy === 'METER'
      ? points.map((p) => ({
          label: p.room ?? p.name,
          point: p,
          points: quantities.map((q) => (p.quantity === q ? [p] : [])),
        }))
      : [...new Set(points.map((p) => p.room))]
          .sort((a, b) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
          .map((room) => ({
            label: room,
            point: null,
            points: quantities.map((q) => points.filter((p) => p.room === room && p.quantity === q)),
          }));

  const { queries, add } = seriesCollector();
  const perQuantity = quantities.map((quantity) => ({
    unitTotal:
      compareWith === 'PROPERTY'
        ? add(
            totalQuery(period, access, quantity, graphType, {
              pointIds: points.filter((p) => p.quantity === quantity).map((p) => p.id),
            }),
          )
        : null,
    property:
      compareWith === 'PROPERTY'
        ? add(
            totalQuery(period, access, quantity, graphType, {
              pointIds: [],
              property: { propertyId, quantity, measure: 'perM2' },
            }),
          )
        : null,
  }));
  const cells = rowPlans.map((row) =>
    quantities.map((quantity, j) => {
      const ids = { pointIds: row.points[j]!.map((p) => p.id) };
      if (ids.pointIds.length === 0) return null;
      return {
        value: add(totalQuery(period, access, quantity, graphType, ids)),
        previous:
          compareWith === 'LAST_PERIOD' ? add(totalQuery(previous, access, quantity, graphType, ids)) : null,
      };
    }),
  );
  const totals = await seriesTotals(reads, queries);

  const area = Number(access.apartment.areaM2);
  // CO2 series are in grams already: each day's value times that day's factor (totalQuery).
  const scale = (_quantity: QuantityId, v: number | null, perArea: boolean) => {
    if (v === null) return null;
    return perArea ? v / area : v;
  };
  const normalizedOf = (q: QuantityId) => Boolean(input.normalized) && QUANTITIES[q].normalizable;

  const rows: TableRow[] = rowPlans.map((row, r) => {
    const values = quantities.map((q, j) => {
      const cell = cells[r]![j];
      return cell ? scale(q, totals[cell.value] ?? null, normalizedOf(q)) : null;
    });
    const comparisonValues = quantities.map((q, j) => {
      const cell = cells[r]![j];
      if (!cell) return null;
      if (cell.previous !== null) return scale(q, totals[cell.previous] ?? null, normalizedOf(q));
      const slot = perQuantity[j]!;
      const property = totals[slot.property!] ?? null;
      if (QUANTITIES[q].aggregation === 'avg') return scale(q, property, false);
      // The property's per-m² figure for the whole unit, times the row's share of the unit.
      const unitTotal = totals[slot.unitTotal!] ?? null;
      const rowTotal = totals[cell.value] ?? null;
      if (property === null || unitTotal === null || rowTotal === null || unitTotal === 0) return null;
      const forUnit = normalizedOf(q) ? property : property * area;
      return scale(q, forUnit * (rowTotal / unitTotal), false);
    });
    const object = row.point
      ? pointObject(row.point, access.apartment, access.property, access.tenant, meters.get(row.point.id))
      : unitObject(access.apartment, access.property, access.tenant);
    return { object, label: row.label, values, comparisonValues };
  });

  return {
    quantityDescriptors: quantities.map((q) => ({
      quantity: q,
      normalized: normalizedOf(q),
      expressedAs: graphType === 'CO2' ? 'co2' : null,
    })),
    rows,
    compareWith,
    partial: isOpen(period),
  };
};

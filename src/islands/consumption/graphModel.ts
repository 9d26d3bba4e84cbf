/** Turns tenantGraph answers into what the charts draw: the main series and its related series. */
import type { GraphConsumption, TenantGraph } from '../../client/operations/tenantGraph.ts';
import type { ServerResolution } from '../../lib/periods.ts';
import { isQuantityId, QUANTITIES } from '../../lib/quantities.ts';
import type { ChartSeries, GraphModel } from './ConsumptionChart.tsx';
import type { ValueFormat } from './valueFormat.ts';

/** Series colours: the tenant's own (warm), the comparison (grey, dashed), last year (blue). */
/** Bars of the main series whose bucket counts estimated hours (3:1 against the white card and the main colour's hue dropped). */
export const ESTIMATED_FILL = '#78716c';

export const COLORS = {
  main: '#c2410c',
  comparison: '#57534e',
  /** A bucket that is not over yet: lighter than main, still 3.3:1 on white (WCAG 1.4.11). */
  partial: '#df6d35',
  lastYear: '#2563eb',
  extra: ['#c2410c', '#0f766e', '#7c3aed', '#2563eb', '#be123c', '#4d7c0f'],
} as const;

/** Whether a quantity is drawn as bars (sums) or a line (averages such as temperature). */
function seriesKind(quantity: string): 'bar' | 'line' {
  return isQuantityId(quantity) && QUANTITIES[quantity].aggregation === 'sum' ? 'bar' : 'line';
}

/** What the series of one quantity need of a graph's consumption (the dashboard asks for no more). */
type ConsumptionLike = Pick<GraphConsumption, 'values' | 'relatedValues'> & {
  quantityDescriptor: { quantity: string };
};
/** What quantityGraphModel needs of a graph. */
type GraphLike<C extends ConsumptionLike = ConsumptionLike> = Pick<TenantGraph, 'timestamps' | 'partial'> & {
  graphs: { consumption: C[] }[];
};

/** The consumption of one quantity in a graph's first object (the unit), or undefined. */
export function consumptionOf<C extends ConsumptionLike>(
  graph: GraphLike<C> | undefined,
  quantity: string,
): C | undefined {
  return graph?.graphs.flatMap((g) => g.consumption).find((c) => c.quantityDescriptor.quantity === quantity);
}

/** The values of a related series by type; undefined when the server sent none. */
function related(c: ConsumptionLike | undefined, type: string): (number | null)[] | undefined {
  return c?.relatedValues.find((r) => r.type === type)?.values;
}

type Overlay = { type: string; name: string; color: string; dashed?: boolean };

/** A quantity's graph: its values, and the related series asked for as lines. */
export function quantityGraphModel(
  graph: GraphLike | undefined,
  quantity: string,
  resolution: ServerResolution,
  format: ValueFormat,
  mainName: string,
  overlays: Overlay[],
): GraphModel {
  const c = consumptionOf(graph, quantity);
  const series: ChartSeries[] = [
    { key: 'main', name: mainName, values: c?.values ?? [], kind: seriesKind(quantity), color: COLORS.main },
  ];
  for (const o of overlays) {
    const values = related(c, o.type);
    // A related series with no value at all (e.g. last year before the data starts) is left out of the legend.
    if (values?.some((v) => v !== null))
      series.push({ key: o.type, name: o.name, values, kind: 'line', color: o.color, dashed: o.dashed });
  }
  return {
    timestamps: graph?.timestamps ?? [],
    partial: graph?.partial ?? [],
    // Only a full consumption series carries the flags (the dashboard's smaller answer has none).
    ...(c && 'estimated' in c && Array.isArray(c.estimated) ? { estimated: c.estimated as boolean[] } : {}),
    resolution,
    series,
    format,
  };
}

/** One series per object (rooms, meters) for a quantity, named by `nameOf`. */
export function objectsGraphModel(
  graph: TenantGraph | undefined,
  quantity: string,
  resolution: ServerResolution,
  format: ValueFormat,
  nameOf: (g: TenantGraph['graphs'][number]) => string,
): GraphModel {
  const series: ChartSeries[] = [];
  for (const g of graph?.graphs ?? []) {
    const c = g.consumption.find((x) => x.quantityDescriptor.quantity === quantity);
    // A point answers only for its own quantity; the other quantity's series is all gaps and is left out.
    if (!c || c.values.every((v) => v === null)) continue;
    const color = COLORS.extra[series.length % COLORS.extra.length] ?? COLORS.main;
    series.push({
      key: `${g.object.id}`,
      name: nameOf(g),
      values: c.values,
      kind: seriesKind(quantity),
      color,
    });
  }
  return { timestamps: graph?.timestamps ?? [], partial: graph?.partial ?? [], resolution, series, format };
}

/** The lowercase slug of a room name (SPEC §2): "Living room" → "living-room". */
export function roomSlug(room: string): string {
  return room
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/å/g, 'a')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

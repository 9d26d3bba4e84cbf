/** The operations tests/bench/scale.ts measures, for the demo tenant's unit and tenancy. */
import { Temporal } from 'temporal-polyfill';
import { copenhagenMinute } from './api.ts';

/** Concurrent clients of the measured windows (the dashboard is also measured alone). */
export const CLIENTS = 20;

interface Op {
  name: string;
  query: string;
  variables: object;
  connections: number;
}

const GRAPH = `query G($graph: TenantGraphInput!) { tenantGraph(graph: $graph) { timestamps
  graphs { consumption { values relatedValues { type values } } } } }`;
const KPIS = `query K($input: UnitQuantityKpisInput!) { unitQuantityKpis(input: $input) { total previousPeriod
  previousYear propertyComparison rooms { label value } meters { value } totalNormalYear climateCorrection { applied } } }`;
const TABLE = `query T($table: TenantTableInput!) { tenantTable(table: $table) { rows { label values comparisonValues } } }`;
const DASHBOARD = `query D($input: TenancyDashboardInput!) { tenancyDashboard(input: $input) { unitId
  units { unit { id } } tenantGraph { timestamps partial graphs { consumption { values relatedValues { type values } } } }
  kpis { total partial previousPeriod propertyComparison } co2 { total } rating { total propertyComparison } } }`;

/** The measured operations for the demo tenant's unit and tenancy, relative to the seed's last hour. */
export function operations(end: Date, unitId: string, tenancyId: string): Op[] {
  const day = 86_400_000;
  const at = (ms: number) => copenhagenMinute(new Date(end.getTime() - ms));
  const graph = (resolution: string, back: number, related?: string[]) => ({
    graph: {
      graphType: 'HOURLY_VALUES',
      resolution,
      periodBegin: at(back),
      periodEnd: at(0),
      objects: [{ kind: 'UNIT', id: unitId }],
      quantities: ['heat-energy'],
      ...(related ? { related } : {}),
    },
  });
  const today = Temporal.Instant.fromEpochMilliseconds(end.getTime())
    .toZonedDateTimeISO('Europe/Copenhagen')
    .toPlainDate();
  const lastMonth = today.with({ day: 1 }).subtract({ months: 1 });
  const dashboard = {
    input: {
      tenancyId,
      quantities: ['heat-energy', 'hot-water-volume', 'cold-water-volume', 'electricity-energy'],
      resolution: 'DAY',
      graphBegin: at(30 * day),
      graphEnd: at(0),
      related: ['PROPERTY'],
      periodBegin: today.subtract({ days: 30 }).toString(),
      periodEnd: today.subtract({ days: 1 }).toString(),
      ratingBegin: today.subtract({ days: 365 }).toString(),
      ratingEnd: today.subtract({ days: 1 }).toString(),
    },
  };
  const ops: Omit<Op, 'connections'>[] = [
    { name: 'tenantGraph year at MONTH', query: GRAPH, variables: graph('MONTH', 365 * day) },
    { name: 'tenantGraph 30 d at DAY', query: GRAPH, variables: graph('DAY', 30 * day) },
    { name: 'tenantGraph 24 h at HOUR', query: GRAPH, variables: graph('HOUR', day) },
    { name: 'property comparison 24 h at HOUR', query: GRAPH, variables: graph('HOUR', day, ['PROPERTY']) },
    {
      name: 'unitQuantityKpis 365 d, heat + hca, climate',
      query: KPIS,
      variables: {
        input: {
          unitId,
          quantities: ['heat-energy', 'hca'],
          periodBegin: today.subtract({ days: 365 }).toString(),
          periodEnd: today.subtract({ days: 1 }).toString(),
          climateCorrection: {},
        },
      },
    },
    {
      name: 'tenantTable last month per ROOM vs PROPERTY',
      query: TABLE,
      variables: {
        table: {
          unitId,
          quantities: ['hca', 'indoor-temperature'],
          periodBegin: lastMonth.toString(),
          periodEnd: today.with({ day: 1 }).subtract({ days: 1 }).toString(),
          rows: 'ROOM',
          compareWith: 'PROPERTY',
        },
      },
    },
    { name: 'tenancyDashboard 30 d at DAY + PROPERTY', query: DASHBOARD, variables: dashboard },
  ];
  return [
    ...ops.map((o) => ({ ...o, connections: CLIENTS })),
    { name: 'tenancyDashboard alone', query: DASHBOARD, variables: dashboard, connections: 1 },
  ];
}

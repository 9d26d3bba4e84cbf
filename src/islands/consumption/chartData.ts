/** Turns a tenantGraph answer into what the dashboard shows: labelled daily points and their total. */
import type { TenantGraph } from '../../client/operations/tenantGraph.ts';
import { dateLocale, type Language } from '../../lib/languages.ts';

export type DailySeries = { labels: string[]; values: (number | null)[]; total: number; hasData: boolean };

/** A short day label ("5 Mar", "5. mar.") for a bucket start with its Copenhagen offset. */
export function dayLabel(timestamp: string, lang: Language): string {
  // The bucket's local date is the timestamp's own date part (it carries the Copenhagen offset).
  const [y, m, d] = timestamp.slice(0, 10).split('-').map(Number);
  if (!y || !m || !d) return timestamp;
  return new Intl.DateTimeFormat(dateLocale(lang), {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(Date.UTC(y, m - 1, d));
}

/** The first series of a graph for one quantity, with labels and total; hasData is false when all are null. */
export function dailySeries(graph: TenantGraph | undefined, quantity: string, lang: Language): DailySeries {
  const consumption = graph?.graphs
    .flatMap((g) => g.consumption)
    .find((c) => c.quantityDescriptor.quantity === quantity);
  const values = consumption?.values ?? [];
  const present = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return {
    labels: (graph?.timestamps ?? []).map((ts) => dayLabel(ts, lang)),
    values,
    total: present.reduce((sum, v) => sum + v, 0),
    hasData: present.length > 0,
  };
}

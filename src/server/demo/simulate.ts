/**
 * Runs the demo plan hour by hour: each stream's active meter and register value, and the readings the meters
 * send (model.ts gives each hour's value). Pure: no database.
 */
import type { ReadingRow } from '../ingest/ingest.ts';
import { type DemoPlan, formatScaled, HOUR_MS, hourContext, type StreamPlan, streamValue } from './model.ts';

/** The start of the hour (epoch ms) of an instant. */
export const floorHour = (d: Date) => Math.floor(d.getTime() / HOUR_MS) * HOUR_MS;

/** Per stream: which meter is active and its register value (integer units), as of the last simulated hour. */
export interface StreamState {
  meter: number;
  value: number;
}

/** The index of the stream's meter in service at hour `ms` (the last meter when none is). */
export function activeMeter(s: StreamPlan, ms: number): number {
  const i = s.meters.findIndex((m) => m.installedMs <= ms && (m.removedMs === null || ms < m.removedMs));
  return i < 0 ? s.meters.length - 1 : i;
}

/** Every stream as of the first hour of history. */
export function freshState(plan: DemoPlan): StreamState[] {
  return plan.streams.map((s) => ({ meter: activeMeter(s, plan.startMs), value: s.initial }));
}

/**
 * Advances every stream through the hours fromMs..toMs (inclusive), updating `state`; with `rows`,
 * also emits the readings. The first hour of history emits the initial register values.
 */
export function simulate(
  plan: DemoPlan,
  state: StreamState[],
  fromMs: number,
  toMs: number,
  rows?: ReadingRow[],
): void {
  const apartmentsByIndex = new Map(plan.apartments.map((a) => [a.index, a]));
  for (let ms = fromMs; ms <= toMs; ms += HOUR_MS) {
    const ctx = hourContext(plan.seed, ms);
    const ts = rows ? new Date(ms).toISOString() : '';
    plan.streams.forEach((s, j) => {
      const v = streamValue(s, s.apartment === null ? undefined : apartmentsByIndex.get(s.apartment), ctx);
      if (s.readingKind === 'instantaneous') {
        rows?.push({
          line: rows.length + 1,
          meterNumber: s.meters[0]!.number,
          ts,
          value: v.toFixed(s.decimals),
        });
        return;
      }
      const st = state[j]!;
      if (ms === plan.startMs) st.value = s.initial;
      else if (ms === s.resetMs) st.value = v;
      else if (s.stuckFromMs === undefined || ms < s.stuckFromMs) st.value += v;
      const lost = s.gap !== undefined && ms > s.gap.fromMs && ms < s.gap.toMs;
      if (!lost)
        rows?.push({
          line: rows.length + 1,
          meterNumber: s.meters[st.meter]!.number,
          ts,
          value: formatScaled(st.value, s.decimals),
        });
      const next = activeMeter(s, ms);
      if (next !== st.meter) {
        // A swap: the new meter starts from zero at the hour the old one was removed.
        st.meter = next;
        st.value = 0;
        rows?.push({
          line: rows.length + 1,
          meterNumber: s.meters[next]!.number,
          ts,
          value: formatScaled(0, s.decimals),
        });
      }
    });
  }
}

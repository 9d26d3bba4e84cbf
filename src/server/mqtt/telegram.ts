/**
 * wmbusmeters' JSON telegrams, as it publishes them over MQTT (one message per telegram): which radio id sent
 * it, when, and the value a meter of a given quantity reports. Field names are wmbusmeters' own: a value's name
 * ends in its unit (`total_m3`, `total_energy_consumption_kwh`, `current_consumption_hca`,
 * `current_temperature_c`, …). Pure: no I/O.
 */
import type { QuantityId } from '../../lib/quantities.ts';

/** A telegram read far enough to match it to a meter. */
export interface Telegram {
  /** wmbusmeters' `id`: the meter's radio address (8 digits, as printed on the meter's radio label). */
  radioId: string;
  /** wmbusmeters' `meter`: the driver that decoded it (e.g. `multical21`), when given. */
  driver: string | null;
  /** ISO 8601 with an offset or Z. */
  timestamp: string;
  fields: Record<string, unknown>;
}

export type TelegramProblem = { reason: 'malformed'; detail: string; radioId: string | null };

/** Parses one MQTT message; a problem says why it is not a telegram we can use. */
export function parseTelegram(payload: string): Telegram | TelegramProblem {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return { reason: 'malformed', detail: 'not JSON', radioId: null };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { reason: 'malformed', detail: 'not a JSON object', radioId: null };
  }
  const fields = value as Record<string, unknown>;
  const id = typeof fields.id === 'string' || typeof fields.id === 'number' ? String(fields.id).trim() : '';
  if (!/^[0-9A-Za-z]{1,32}$/.test(id)) {
    return { reason: 'malformed', detail: 'no "id" (the radio address)', radioId: null };
  }
  const timestamp = typeof fields.timestamp === 'string' ? fields.timestamp.trim() : '';
  // wmbusmeters writes UTC with a Z by default; a local time without an offset would be ambiguous.
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(timestamp)) {
    return { reason: 'malformed', detail: 'no "timestamp" with a UTC offset', radioId: id };
  }
  const driver = typeof fields.meter === 'string' ? fields.meter : null;
  return { radioId: id, driver, timestamp: timestamp.replace(' ', 'T'), fields };
}

/** wmbusmeters field names for each quantity, best first, with the factor to our unit. */
const FIELDS: Partial<Record<QuantityId, ReadonlyArray<readonly [string, number]>>> = {
  'heat-energy': energyFields(),
  'electricity-energy': energyFields(),
  'cooling-energy': energyFields(),
  'heat-volume': [
    ['total_volume_m3', 1],
    ['total_m3', 1],
  ],
  'hot-water-volume': [['total_m3', 1]],
  'cold-water-volume': [['total_m3', 1]],
  'total-water-volume': [['total_m3', 1]],
  'gas-volume': [['total_m3', 1]],
  hca: [
    ['current_consumption_hca', 1],
    ['consumption_hca', 1],
  ],
  'indoor-temperature': [
    ['current_temperature_c', 1],
    ['temperature_c', 1],
    ['room_temperature_c', 1],
  ],
  'indoor-relative-humidity': [
    ['current_relative_humidity_rh', 1],
    ['relative_humidity_rh', 1],
    ['humidity_rh', 1],
  ],
  'heat-flow-temperature': [['flow_temperature_c', 1]],
  'heat-return-temperature': [['return_temperature_c', 1]],
  'outdoor-temperature': [
    ['external_temperature_c', 1],
    ['outdoor_temperature_c', 1],
  ],
};

function energyFields(): ReadonlyArray<readonly [string, number]> {
  return [
    ['total_energy_consumption_kwh', 1],
    ['total_kwh', 1],
    ['total_energy_consumption_mwh', 1000],
    ['total_mwh', 1000],
    // 1 GJ = 277.777… kWh: the reading keeps 6 decimals (the ingestion's precision bound).
    ['total_energy_consumption_gj', 1e9 / 3.6e6],
    ['total_gj', 1e9 / 3.6e6],
  ];
}

/** The register or sample a telegram carries for a meter of `quantity`, as a decimal string; null if none. */
export function valueFor(telegram: Telegram, quantity: string): { field: string; value: string } | null {
  for (const [field, factor] of FIELDS[quantity as QuantityId] ?? []) {
    const raw = telegram.fields[field];
    if (typeof raw !== 'number' || !Number.isFinite(raw)) continue;
    return { field, value: decimal(raw * factor) };
  }
  return null;
}

/** A number as a plain decimal string with at most 6 decimals (never exponent notation). */
function decimal(n: number): string {
  const fixed = n.toFixed(6);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** The field names a meter of `quantity` is read from (for messages to the operator). */
export function fieldsFor(quantity: string): string[] {
  return (FIELDS[quantity as QuantityId] ?? []).map(([field]) => field);
}

/**
 * Validation of a batch on its own: each row (meter, timestamp, value, bounds) and rows against one another.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pgNumberArray, pgTextArray, queryRows } from '../db/sql.ts';
import { EARLIEST_READING_MS, FUTURE_TOLERANCE_MS, precisionProblem, SAMPLE_RANGE } from './bounds.ts';
import { parseDecimal, parseTimestamp } from './parse.ts';
import { type IngestProblem, type MeterInfo, problem, type ReadingRow, type ValidRow } from './types.ts';

/**
 * The meters of these numbers; with `propertyIds` (an API key's scope) only those of the properties, so a
 * meter elsewhere is as unknown as one that does not exist.
 */
export async function loadMeters(
  db: Db,
  numbers: string[],
  propertyIds?: number[],
): Promise<Map<string, MeterInfo>> {
  const rows = await queryRows<{
    id: number;
    number: string;
    point_id: number;
    property_id: number;
    rollover_digits: number | null;
    reset_on: string | null;
    installed_ms: number;
    removed_ms: number | null;
    quantity: string;
    reading_kind: 'register' | 'instantaneous';
  }>(
    db,
    sql`SELECT m.id, m.number, m.measurement_point_id AS point_id,
          (extract(epoch FROM m.installed_at) * 1000)::float8 AS installed_ms,
          (extract(epoch FROM m.removed_at) * 1000)::float8 AS removed_ms,
          p.quantity, p.reading_kind, p.property_id, m.rollover_digits, m.reset_on
        FROM meters m JOIN measurement_points p ON p.id = m.measurement_point_id
        WHERE m.number = ANY(${pgTextArray(numbers)}::text[])
          ${propertyIds ? sql`AND p.property_id = ANY(${pgNumberArray(propertyIds)}::int[])` : sql``}`,
  );
  return new Map(
    rows.map((r) => [
      r.number,
      {
        id: r.id,
        number: r.number,
        pointId: r.point_id,
        propertyId: r.property_id,
        rolloverDigits: r.rollover_digits,
        resetOn: r.reset_on,
        installedMs: Number(r.installed_ms),
        removedMs: r.removed_ms === null ? null : Number(r.removed_ms),
        quantity: r.quantity,
        readingKind: r.reading_kind,
      },
    ]),
  );
}

/** Shows a field in an error message: control characters escaped, long texts cut. */
function shown(text: string): string {
  const cut = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escaping them is the point
  return cut.replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Checks each row on its own and against the others of the batch; returns the rows to store, sorted by meter
 * and time. A row repeating an earlier one (same meter and time) is dropped, or refused if its value differs.
 */
export function validateRows(
  rows: ReadingRow[],
  meters: Map<string, MeterInfo>,
  problems: IngestProblem[],
  nowMs: number,
  /** Gets the lines of rows that repeat an earlier row of the batch exactly (dropped). */
  repeats: number[] = [],
  /** How a line is named in a reason's text (default: as it is). */
  shownLine: (line: number) => number = (line) => line,
): ValidRow[] {
  // The rows of each meter, in the order they came.
  const byMeter = new Map<number, ValidRow[]>();
  // Every meter of a batch usually shares the same timestamps; parse each text once.
  const tsCache = new Map<string, number | null>();
  const latestMs = nowMs + FUTURE_TOLERANCE_MS;
  for (const row of rows) {
    const before = problems.length;
    if (row.meterNumber.includes('\0') || row.ts.includes('\0') || row.value.includes('\0')) {
      problems.push(problem(row.line, 'null_byte', {}, 'the row holds a null byte'));
      continue;
    }
    const meter = meters.get(row.meterNumber.trim());
    if (!meter) {
      const number = shown(row.meterNumber);
      problems.push(
        problem(row.line, 'unknown_meter', { meter: number }, `unknown meter number "${number}"`),
      );
    }
    let ms = tsCache.get(row.ts);
    if (ms === undefined) {
      ms = parseTimestamp(row.ts);
      tsCache.set(row.ts, ms);
    }
    if (ms === null) {
      const ts = shown(row.ts);
      problems.push(
        problem(
          row.line,
          'invalid_timestamp',
          { timestamp: ts },
          `invalid timestamp "${ts}" (expected ISO 8601 with offset or Z)`,
        ),
      );
    } else if (ms < EARLIEST_READING_MS) {
      problems.push(
        problem(
          row.line,
          'timestamp_before_2000',
          { timestamp: row.ts },
          `timestamp ${row.ts} is before 2000`,
        ),
      );
    } else if (ms > latestMs) {
      problems.push(
        problem(
          row.line,
          'timestamp_in_future',
          { timestamp: row.ts },
          `timestamp ${row.ts} is more than one hour in the future`,
        ),
      );
    }
    const value = parseDecimal(row.value);
    if (value === null) {
      const text = shown(row.value);
      problems.push(problem(row.line, 'not_a_number', { value: text }, `value "${text}" is not a number`));
    } else {
      const precision = precisionProblem(value);
      if (precision) {
        problems.push(
          problem(
            row.line,
            precision.code,
            { value: shown(value), maxDigits: precision.maxDigits },
            `value ${shown(value)} ${precision.text}`,
          ),
        );
      } else if (meter?.readingKind === 'register' && value.startsWith('-')) {
        problems.push(
          problem(
            row.line,
            'negative_register',
            { value },
            `value ${value} is negative; a register never is`,
          ),
        );
      } else if (meter?.readingKind === 'instantaneous') {
        const range = SAMPLE_RANGE[meter.quantity];
        const n = Number(value);
        if (range && (n < range[0] || n > range[1])) {
          problems.push(
            problem(
              row.line,
              'out_of_range',
              { value, min: range[0], max: range[1], quantity: meter.quantity },
              `value ${value} is outside the plausible range ${range[0]} to ${range[1]} for ${meter.quantity}`,
            ),
          );
        }
      }
    }
    if (!meter || ms === null || value === null || problems.length > before) continue;
    if (ms < meter.installedMs || (meter.removedMs !== null && ms > meter.removedMs)) {
      const installedAt = new Date(meter.installedMs).toISOString();
      const removedAt = meter.removedMs === null ? null : new Date(meter.removedMs).toISOString();
      const window = `${installedAt} – ${removedAt ?? 'now'}`;
      problems.push(
        problem(
          row.line,
          'outside_installation',
          { meter: meter.number, timestamp: row.ts, installedAt, removedAt },
          `timestamp ${row.ts} is outside meter ${meter.number}'s installation (${window})`,
        ),
      );
      continue;
    }
    let ofMeter = byMeter.get(meter.id);
    if (!ofMeter) {
      ofMeter = [];
      byMeter.set(meter.id, ofMeter);
    }
    ofMeter.push({ line: row.line, meterId: meter.id, ms, value, ts: row.ts });
  }
  const numberOf = new Map([...meters.values()].map((m) => [m.id, m.number]));
  const valid: ValidRow[] = [];
  for (const meterId of [...byMeter.keys()].sort((a, b) => a - b)) {
    const ofMeter = byMeter.get(meterId)!;
    // Usually in time order already; a stable sort keeps repeats in the order they came.
    if (ofMeter.some((r, i) => i > 0 && r.ms < ofMeter[i - 1]!.ms)) ofMeter.sort((a, b) => a.ms - b.ms);
    let kept: ValidRow | undefined;
    for (const r of ofMeter) {
      if (kept?.ms !== r.ms) {
        kept = r;
        valid.push(r);
      } else if (kept.value === r.value) repeats.push(r.line);
      else if (kept.value !== r.value) {
        const meter = numberOf.get(meterId)!;
        const otherLine = shownLine(kept.line);
        problems.push(
          problem(
            r.line,
            'conflicting_value_in_batch',
            { meter, timestamp: r.ts, value: r.value, otherValue: kept.value, otherLine },
            `meter ${meter} at ${r.ts} has value ${r.value} here but ${kept.value} on line ${otherLine}`,
          ),
        );
      }
    }
  }
  return valid;
}

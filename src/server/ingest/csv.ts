/**
 * CSV import of meter readings: a header `meter_number,timestamp,value`, then one reading per line.
 * Line numbers in errors are the file's lines (the header is line 1).
 */
import { CsvError, parse } from 'csv-parse/sync';
import { IngestError, type ReadingRow } from './ingest.ts';

const COLUMNS = ['meter_number', 'timestamp', 'value'] as const;

/** Parses CSV text into reading rows; a malformed file throws IngestError naming the line. */
export function parseReadingsCsv(text: string): ReadingRow[] {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as typeof records;
  } catch (err) {
    if (err instanceof CsvError) {
      const line = Number((err as CsvError & { lines?: number }).lines ?? 0);
      throw new IngestError([{ line, reason: `malformed CSV: ${err.message}` }]);
    }
    throw err;
  }
  const [header, ...body] = records;
  const names = header?.record.map((c) => c.toLowerCase());
  if (!names || names.length !== COLUMNS.length || COLUMNS.some((c, i) => names[i] !== c)) {
    throw new IngestError([
      {
        line: header?.info.lines ?? 1,
        reason: `expected the header "${COLUMNS.join(',')}", got "${header?.record.join(',') ?? ''}"`,
      },
    ]);
  }
  return body.map(({ record, info }) => ({
    line: info.lines,
    meterNumber: record[0]!,
    ts: record[1]!,
    value: record[2]!,
  }));
}

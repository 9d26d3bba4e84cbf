/**
 * CSV import of meter readings: a header `meter_number,timestamp,value`, then one reading per line.
 * Line numbers in errors are the file's lines (the header is line 1).
 *
 * `parseReadingsCsv` parses in place (the CLI's file); `csvInWorker` parses a large HTTP body in a worker thread
 * (csv-worker.mjs), so the thread that answers tenants does not wait behind csv-parse. Both check the header and
 * make the rows here.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CsvError, type Options, parse } from 'csv-parse/sync';
import { appRoot } from '../paths.ts';
import { IngestError, problem, type ReadingRow } from './types.ts';

const COLUMNS = ['meter_number', 'timestamp', 'value'] as const;
const OPTIONS: Options = { bom: true, skip_empty_lines: true, trim: true };

/** Rows from parsed records (their fields and the line each ends on); a wrong header throws IngestError. */
function rowsOf(records: string[][], lines: ArrayLike<number>): ReadingRow[] {
  const names = records[0]?.map((c) => c.toLowerCase());
  if (!names || names.length !== COLUMNS.length || COLUMNS.some((c, i) => names[i] !== c)) {
    const expected = COLUMNS.join(',');
    const got = records[0]?.join(',') ?? '';
    throw new IngestError([
      problem(
        lines[0] ?? 1,
        'bad_csv_header',
        { expected, got },
        `expected the header "${expected}", got "${got}"`,
      ),
    ]);
  }
  const rows: ReadingRow[] = new Array(records.length - 1);
  for (let i = 1; i < records.length; i++) {
    const record = records[i]!;
    rows[i - 1] = { line: lines[i]!, meterNumber: record[0]!, ts: record[1]!, value: record[2]! };
  }
  return rows;
}

function malformed(line: number, message: string): IngestError {
  return new IngestError([problem(line, 'malformed_csv', { message }, `malformed CSV: ${message}`)]);
}

/** Parses CSV text into reading rows; a malformed file throws IngestError naming the line. */
export function parseReadingsCsv(text: string): ReadingRow[] {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, { ...OPTIONS, info: true }) as unknown as typeof parsed;
  } catch (err) {
    if (err instanceof CsvError)
      throw malformed(Number((err as CsvError & { lines?: number }).lines ?? 0), err.message);
    throw err;
  }
  return rowsOf(
    parsed.map((p) => p.record),
    parsed.map((p) => p.info.lines),
  );
}

type Answer =
  | { id: number; records: string[][]; lines: Int32Array }
  | { id: number; error: { csv: boolean; message: string; line: number } };

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, { resolve(a: Answer): void; reject(e: Error): void }>();

/** The parsing thread, started on first use; it does not keep the process alive, and is replaced if it dies. */
function parser(): Worker {
  if (worker) return worker;
  const started = new Worker(pathToFileURL(join(appRoot, 'src/server/ingest/csv-worker.mjs')), {
    workerData: { options: OPTIONS },
  });
  started.on('message', (answer: Answer) => {
    pending.get(answer.id)?.resolve(answer);
    pending.delete(answer.id);
    if (pending.size === 0) started.unref();
  });
  const fail = (err: Error) => {
    if (worker === started) worker = null;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`the CSV worker stopped (exit ${code})`)));
  // Idle, it does not keep the process alive (csvInWorker refs it while a body is being parsed). After the
  // listeners: adding a 'message' listener refs the thread again.
  started.unref();
  worker = started;
  return started;
}

/** As parseReadingsCsv, for a body (UTF-8 bytes), parsed in the CSV worker thread. */
export async function csvInWorker(body: Uint8Array): Promise<ReadingRow[]> {
  const id = nextId++;
  const answer = await new Promise<Answer>((resolve, reject) => {
    const thread = parser();
    pending.set(id, { resolve, reject });
    thread.ref();
    // A copy goes to the worker, so the caller keeps its body (the idempotency hash, the batch's stored rows).
    thread.postMessage({ id, body });
  });
  if ('error' in answer) {
    if (answer.error.csv) throw malformed(answer.error.line, answer.error.message);
    throw new Error(answer.error.message);
  }
  return rowsOf(answer.records, answer.lines);
}

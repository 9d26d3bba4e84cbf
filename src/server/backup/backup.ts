/**
 * A logical backup through the database engine, never a copy of its live files: every table of the app's schema
 * read through a cursor (each value as its type's text output) inside one REPEATABLE READ transaction (one
 * consistent snapshot), written gzip-compressed.
 * Made for the embedded database (`npm run cli -- backup`, which beside a running server works through its
 * PGlite worker); it works on PostgreSQL too, where pg_dump / pg_restore is the documented path (docs/deploy.md).
 *
 * The file: a JSON header line (format, schema version, sequences), then per table a JSON line naming it and
 * its columns, its rows in COPY's text format (one line each: newlines inside values are escaped), and a `\.`
 * line; last a JSON footer line with every table's row count. Tables come parents first (foreign keys), so a
 * restore loads them in file order.
 *
 * Restore writes into a database at the same schema version (run `npm run db:migrate` on the new database
 * first), in one transaction: all of it or nothing. It refuses a database that holds data unless asked to
 * replace it (`--replace`, which empties every table first, the append-only audit_log too). It loads the rows with
 * batched INSERTs, not `COPY … FROM STDIN` (which PGlite cannot take over its socket), with the app's triggers
 * off until the end of its transaction.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { PostgresType, Sql, TransactionSql } from 'postgres';
import { type Database, type Db, openBackgroundConnection } from '../db/client.ts';

type Client = Sql<Record<string, PostgresType>>;
/** A connection or a transaction on it. */
type Session = Client | TransactionSql<Record<string, PostgresType>>;

const BACKUP_FORMAT = 'tenant-app-backup';
const BACKUP_VERSION = 1;
const END_OF_DATA = '\\.';

/** A backup or restore that cannot go ahead; nothing was changed. */
export class BackupError extends Error {}

export interface BackupSummary {
  file: string;
  /** Rows per table. */
  tables: Record<string, number>;
  rows: number;
  bytes: number;
}

interface Header {
  format: string;
  version: number;
  createdAt: string;
  /** created_at of the newest applied migration: the schema version. */
  schema: string;
  sequences: Array<{ name: string; value: string }>;
}

/** The postgres.js client under a Drizzle handle (the same for both engines). */
function clientOf(db: Db): Client {
  const client = (db as unknown as { $client?: Client }).$client;
  if (!client) throw new BackupError('not a database opened by openDatabase');
  return client;
}

/**
 * A connection of the backup's or restore's own for its transaction, so the app's pool (on PGlite one pipelined
 * connection) is never held by it: a backup beside the API's own traffic on that connection hung (PGlite, after a
 * tenant graph request). On PGlite it is a background connection (requests go first, pglite-worker.mjs). A database
 * reached through another process's socket (the CLI beside `npm start`) has one connection only: that one.
 */
async function ownSession(db: Db): Promise<{ sql: Client; close: () => Promise<void> }> {
  let own: { db: Db; close: () => Promise<void> };
  try {
    own = await openBackgroundConnection({ db } as Database);
  } catch {
    return { sql: clientOf(db), close: async () => {} };
  }
  return { sql: clientOf(own.db), close: own.close };
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function schemaVersion(sql: Session): Promise<string> {
  const [row] = await sql<Array<{ newest: string | null }>>`
    SELECT CASE WHEN to_regclass('drizzle.__drizzle_migrations') IS NULL THEN NULL
      ELSE (SELECT max(created_at)::text FROM drizzle.__drizzle_migrations) END AS newest`;
  return row?.newest ?? '';
}

/** The app's tables (partitioned parents, not their partitions), parents before the tables that refer to them. */
async function tablesInOrder(sql: Session): Promise<Array<{ name: string; columns: string[] }>> {
  const tables = await sql<Array<{ name: string; columns: string[] }>>`
    SELECT c.relname AS name,
      array(SELECT a.attname::text FROM pg_attribute a
            WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
            ORDER BY a.attnum) AS columns
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
    ORDER BY c.relname`;
  const edges = await sql<Array<{ child: string; parent: string }>>`
    SELECT ch.relname AS child, pa.relname AS parent
    FROM pg_constraint k
      JOIN pg_class ch ON ch.oid = k.conrelid
      JOIN pg_class pa ON pa.oid = k.confrelid
      JOIN pg_namespace n ON n.oid = ch.relnamespace
    WHERE k.contype = 'f' AND n.nspname = 'public' AND ch.relname <> pa.relname`;
  const byName = new Map(tables.map((t) => [t.name, t]));
  const parents = new Map<string, Set<string>>();
  for (const { child, parent } of edges) {
    if (!byName.has(child) || !byName.has(parent)) continue;
    if (!parents.has(child)) parents.set(child, new Set());
    parents.get(child)!.add(parent);
  }
  const ordered: Array<{ name: string; columns: string[] }> = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new BackupError(`foreign keys form a cycle at ${name}`);
    state.set(name, 'visiting');
    for (const parent of [...(parents.get(name) ?? [])].sort()) visit(parent);
    state.set(name, 'done');
    ordered.push(byName.get(name)!);
  };
  for (const table of tables) visit(table.name);
  return ordered;
}

/** A batch of restored rows goes in as one INSERT of this many rows or bytes at most. */
const BATCH_ROWS = 5_000;
const BATCH_BYTES = 4 << 20;

/** Rows a backup reads per cursor fetch. */
const CURSOR_ROWS = 2_000;

/** A value in COPY's text format: `\\N` for NULL; backslash, newline, carriage return and tab escaped. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/[\\\n\r\t]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t',
  );
}

const COPY_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/**
 * One line of COPY's text format as its fields: tab-separated, `\N` for NULL, backslash escapes (the named ones,
 * `\\`, octal `\ddd` and hex `\xhh` bytes, which COPY's output never uses for valid UTF-8 but its input allows).
 */
export function parseCopyLine(line: string): Array<string | null> {
  return line.split('\t').map((field) => {
    if (field === '\\N') return null;
    if (!field.includes('\\')) return field;
    let bytes: number[] | null = null;
    let out = '';
    const flush = () => {
      if (bytes) out += Buffer.from(bytes).toString('utf8');
      bytes = null;
    };
    for (let i = 0; i < field.length; i++) {
      const c = field[i]!;
      if (c !== '\\' || i + 1 >= field.length) {
        flush();
        out += c;
        continue;
      }
      const e = field[++i]!;
      const octal = /^[0-7]{1,3}/.exec(field.slice(i, i + 3));
      const hex = e === 'x' ? /^[0-9a-fA-F]{1,2}/.exec(field.slice(i + 1, i + 3)) : null;
      if (octal) {
        bytes ??= [];
        bytes.push(Number.parseInt(octal[0], 8) & 0xff);
        i += octal[0].length - 1;
      } else if (hex) {
        bytes ??= [];
        bytes.push(Number.parseInt(hex[0], 16));
        i += hex[0].length;
      } else {
        flush();
        out += COPY_ESCAPES[e] ?? e;
      }
    }
    flush();
    return out;
  });
}

/**
 * The INSERT that loads a batch of a table's rows: one parameter, a JSON array of rows (each an array of COPY's
 * text values or null), each value cast to its column's type by the type's own input function, exactly as COPY
 * reads it. One parameter whatever the batch size (no 65,535-parameter limit), the same statement for every batch
 * (prepared once), and no `COPY … FROM STDIN`: PGlite 0.5.16 exits when a client sends one over its wire socket
 * (docs/notes/pglite-copy-in.patch), so both engines take this one path.
 */
async function insertStatement(sql: Session, table: string, columns: string[]): Promise<string> {
  const types = await sql<Array<{ name: string; type: string }>>`
    SELECT a.attname::text AS name, format_type(a.atttypid, a.atttypmod) AS type
    FROM pg_attribute a
    WHERE a.attrelid = ${quote(table)}::regclass AND a.attnum > 0 AND NOT a.attisdropped`;
  const typeOf = new Map(types.map((t) => [t.name, t.type]));
  const values = columns.map((column, i) => {
    const type = typeOf.get(column);
    if (!type)
      throw new BackupError(`the backup's table ${table} has a column ${column} this database lacks`);
    return `(r ->> ${i})::${type}`;
  });
  return (
    `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) ` +
    `SELECT ${values.join(', ')} FROM jsonb_array_elements($1::jsonb) AS r`
  );
}

/** Writes a chunk, waiting when the stream asks to. */
async function write(stream: Writable, chunk: string | Buffer): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

/** Backs the database up into `file` (gzip); refuses to overwrite a file. */
export async function backupDatabase(db: Db, file: string): Promise<BackupSummary> {
  if (existsSync(file))
    throw new BackupError(`${file} exists; give a new file name (a backup never overwrites).`);
  const partial = `${file}.partial-${process.pid}`;
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
  written.catch(() => {});
  const tables: Record<string, number> = {};
  try {
    const session = await ownSession(db);
    try {
      await session.sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (sql) => {
        const schema = await schemaVersion(sql);
        if (!schema) throw new BackupError('the database has no schema to back up');
        const sequences = await sql<Array<{ name: string; value: string }>>`
        SELECT format('%I', sequencename) AS name, last_value::text AS value
        FROM pg_sequences WHERE schemaname = 'public' AND last_value IS NOT NULL ORDER BY sequencename`;
        const header: Header = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          createdAt: new Date().toISOString(),
          schema,
          sequences: [...sequences],
        };
        await write(gzip, `${JSON.stringify(header)}\n`);
        for (const table of await tablesInOrder(sql)) {
          await write(gzip, `${JSON.stringify({ table: table.name, columns: table.columns })}\n`);
          // Each value as its type's text output, read through a cursor (never the whole table in memory), and
          // written as COPY's text format. Not `COPY … TO STDOUT`: postgres.js's COPY stream can leave its socket
          // paused when CopyData and CopyDone arrive in one chunk while the reader applies backpressure
          // (porsager/postgres#499, #1016), and the backup then hung (seen on both engines beside gzip).
          const columns = table.columns.map((c) => `${quote(c)}::text`).join(', ');
          const cursor = sql
            .unsafe(`SELECT ${columns} FROM ${quote(table.name)}`)
            .values()
            .cursor(CURSOR_ROWS) as AsyncIterable<Array<Array<string | null>>>;
          let count = 0;
          for await (const rows of cursor) {
            await write(gzip, rows.map((row) => `${row.map(copyField).join('\t')}\n`).join(''));
            count += rows.length;
          }
          await write(gzip, `${END_OF_DATA}\n`);
          tables[table.name] = count;
        }
        await write(gzip, `${JSON.stringify({ end: true, tables })}\n`);
      });
    } finally {
      await session.close();
    }
    gzip.end();
    await written;
    renameSync(partial, file);
  } catch (err) {
    gzip.destroy();
    await written.catch(() => {});
    rmSync(partial, { force: true });
    throw err;
  }
  return { file, tables, rows: Object.values(tables).reduce((a, b) => a + b, 0), bytes: statSync(file).size };
}

/** Restores `file` into the database (same schema version); refuses one with data unless `replace`. */
export async function restoreDatabase(
  db: Db,
  file: string,
  options: { replace?: boolean } = {},
): Promise<BackupSummary> {
  if (!existsSync(file)) throw new BackupError(`No such file: ${file}`);
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  const next = async (): Promise<string | undefined> => {
    const { value, done } = await iterator.next();
    return done ? undefined : (value as string);
  };
  const tables: Record<string, number> = {};
  try {
    let header: Header;
    try {
      header = JSON.parse((await next()) ?? '') as Header;
    } catch {
      throw new BackupError(`${file} is not a backup made by \`npm run cli -- backup\`.`);
    }
    if (header.format !== BACKUP_FORMAT || header.version !== BACKUP_VERSION)
      throw new BackupError(`${file} is not a backup of format ${BACKUP_FORMAT} v${BACKUP_VERSION}.`);
    const session = await ownSession(db);
    try {
      await session.sql.begin(async (sql) => {
        const schema = await schemaVersion(sql);
        if (schema !== header.schema)
          throw new BackupError(
            `The backup's schema version (${header.schema}) is not this database's (${schema || 'none'}). ` +
              'Restore into a database migrated by the same version of the app that made the backup ' +
              '(`npm run db:migrate`), then upgrade.',
          );
        const present = await tablesInOrder(sql);
        if (!options.replace) {
          for (const table of present) {
            const [row] = await sql.unsafe(`SELECT EXISTS (SELECT FROM ${quote(table.name)}) AS "any"`);
            if ((row as unknown as { any: boolean }).any)
              throw new BackupError(
                `The database holds data (table ${table.name}); restore writes only into an empty database. ` +
                  'Pass --replace to replace everything in it with the backup.',
              );
          }
        }
        // The app's own triggers stay off while the backup's rows go in, and come back on in the same transaction:
        // the rows are what the triggers made then (meters.last_reading_at is in the backup), and audit_log's
        // append-only trigger would refuse --replace's TRUNCATE. Foreign keys (system triggers) stay checked.
        const all = present.map((t) => quote(t.name));
        for (const table of all) await sql.unsafe(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
        if (options.replace && all.length > 0)
          await sql.unsafe(`TRUNCATE ${all.join(', ')} RESTART IDENTITY CASCADE`);
        const known = new Set(present.map((t) => t.name));
        let ended = false;
        for (let line = await next(); line !== undefined; line = await next()) {
          const block = JSON.parse(line) as { table?: string; columns?: string[]; end?: boolean };
          if (block.end) {
            ended = true;
            break;
          }
          if (!block.table || !block.columns || !known.has(block.table))
            throw new BackupError(`${file}: unknown table ${block.table ?? '(none)'}`);
          const insert = await insertStatement(sql, block.table, block.columns);
          let count = 0;
          let batch: Array<Array<string | null>> = [];
          let batchBytes = 0;
          for (let row = await next(); row !== END_OF_DATA; row = await next()) {
            if (row === undefined) throw new BackupError(`${file} ends inside table ${block.table}`);
            const values = parseCopyLine(row);
            if (values.length !== block.columns.length)
              throw new BackupError(
                `${file}: a row of ${block.table} has ${values.length} of ${block.columns.length} columns`,
              );
            batch.push(values);
            batchBytes += row.length;
            count++;
            if (batch.length >= BATCH_ROWS || batchBytes >= BATCH_BYTES) {
              await sql.unsafe(insert, [JSON.stringify(batch)]);
              batch = [];
              batchBytes = 0;
            }
          }
          if (batch.length > 0) await sql.unsafe(insert, [JSON.stringify(batch)]);
          tables[block.table] = count;
        }
        if (!ended) throw new BackupError(`${file} is incomplete (no end line)`);
        for (const table of all) await sql.unsafe(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
        // Serial ids carry on from where the backed-up database was.
        for (const { name, value } of header.sequences) {
          await sql.unsafe('SELECT setval($1::regclass, $2::bigint, true)', [name, value]);
        }
      });
    } finally {
      await session.close();
    }
  } finally {
    lines.close();
  }
  return { file, tables, rows: Object.values(tables).reduce((a, b) => a + b, 0), bytes: statSync(file).size };
}

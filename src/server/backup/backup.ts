/**
 * A logical backup through the database engine, never a copy of its live files: every table of the app's schema
 * read with COPY inside one REPEATABLE READ transaction (one consistent snapshot), written gzip-compressed.
 * Made for the embedded database (`npm run cli -- backup`, which beside a running server works through its
 * PGlite worker); it works on PostgreSQL too, where pg_dump / pg_restore is the documented path (docs/deploy.md).
 *
 * The file: a JSON header line (format, schema version, sequences), then per table a JSON line naming it and
 * its columns, its rows in COPY text format (one line each: COPY escapes newlines inside values), and a `\.`
 * line; last a JSON footer line with every table's row count. Tables come parents first (foreign keys), so a
 * restore loads them in file order.
 *
 * Restore writes into a database at the same schema version (run `npm run db:migrate` on the new database
 * first), in one transaction: all of it or nothing. It refuses a database that holds data unless asked to
 * replace it (`--replace`).
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { PostgresType, Sql, TransactionSql } from 'postgres';
import type { Db } from '../db/client.ts';

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
    await clientOf(db).begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (sql) => {
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
        const columns = table.columns.map(quote).join(', ');
        const rows = (await sql
          .unsafe(`COPY (SELECT ${columns} FROM ${quote(table.name)}) TO STDOUT`)
          .readable()) as Readable;
        let count = 0;
        for await (const chunk of rows as AsyncIterable<Buffer>) {
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) count++;
          await write(gzip, chunk);
        }
        await write(gzip, `${END_OF_DATA}\n`);
        tables[table.name] = count;
      }
      await write(gzip, `${JSON.stringify({ end: true, tables })}\n`);
    });
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
    await clientOf(db).begin(async (sql) => {
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
      } else if (present.length > 0) {
        await sql.unsafe(`TRUNCATE ${present.map((t) => quote(t.name)).join(', ')} RESTART IDENTITY CASCADE`);
      }
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
        const target = (await sql
          .unsafe(`COPY ${quote(block.table)} (${block.columns.map(quote).join(', ')}) FROM STDIN`)
          .writable()) as Writable;
        const done = new Promise<void>((resolve, reject) => {
          target.once('finish', resolve);
          target.once('error', reject);
        });
        let count = 0;
        try {
          let batch: string[] = [];
          for (let row = await next(); row !== END_OF_DATA; row = await next()) {
            if (row === undefined) throw new BackupError(`${file} ends inside table ${block.table}`);
            batch.push(row);
            count++;
            if (batch.length >= 2_000) {
              await write(target, `${batch.join('\n')}\n`);
              batch = [];
            }
          }
          if (batch.length > 0) await write(target, `${batch.join('\n')}\n`);
          target.end();
          await done;
        } catch (err) {
          // Ends the COPY with CopyFail, so the server leaves COPY mode and the transaction rolls back.
          target.destroy(err as Error);
          await done.catch(() => {});
          throw err;
        }
        tables[block.table] = count;
      }
      if (!ended) throw new BackupError(`${file} is incomplete (no end line)`);
      // Serial ids carry on from where the backed-up database was.
      for (const { name, value } of header.sequences) {
        await sql.unsafe('SELECT setval($1::regclass, $2::bigint, true)', [name, value]);
      }
    });
  } finally {
    lines.close();
  }
  return { file, tables, rows: Object.values(tables).reduce((a, b) => a + b, 0), bytes: statSync(file).size };
}

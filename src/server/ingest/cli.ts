/**
 * Ingestion's operator commands (registered in src/server/cli.ts):
 *   import <file.csv> [--json] [--partial]   readings through the one ingestion path, with the receipt
 *   data-issues list|accept|reject            the data-issue queue
 *   api-key create|list|revoke                operator keys of the ingestion API
 *   meter radio-id|profile|swap               a meter's radio id, profile, and a swap with readings
 */
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import { ApiKeyError, createApiKey, listApiKeys, revokeApiKey } from './apiKeys.ts';
import { receiptBody } from './batchTask.ts';
import { parseReadingsCsv } from './csv.ts';
import { ingestBatch } from './ingest.ts';
import { acceptIssue, DataIssueError, listIssues, recordSwap, rejectIssue } from './issues.ts';
import { KEY_ACTIVITY_DAYS, type KeyDay, keyDays } from './keyActivity.ts';
import { IngestError } from './types.ts';

export const INGEST_HELP = `  import <file.csv> [--json] [--partial]
                      Import meter readings (meter_number,timestamp,value with a header). A refused row rejects
                      the whole file unless --partial; suspect readings are quarantined (data-issues).
                      --json prints the per-row receipt as JSON (docs/ingest.md).
  data-issues list [--status open|accepted|rejected|all] [--property <id>] [--json]
  data-issues accept <id> --as correct|reset|swap|noted [--new-meter <number>] [--end-value <v>] [--note <text>]
  data-issues reject <id> [--note <text>]
                      The queue of quarantined readings and stuck or silent meters.
  api-key create <name> --property <id>[,<id>…]   (the key is shown once)
  api-key list | api-key revoke <id>
                      Operator keys of POST /api/ingest/v1/readings; list shows what each sent in the last
                      7 days (rows by outcome, the newest refused row).
  meter radio-id <number> <radio-id|none>
  meter profile <number> [--rollover-digits <n|none>] [--reset-on <MM-DD|none>]
  meter swap <number> --at <ISO time> --new-meter <number> --start-value <v> [--end-value <v>] [--radio-id <id>]`;

/** A mistake in an ingestion command or a decision the data refuses: printed without a stack trace. */
export class IngestCliError extends Error {
  override name = 'IngestCliError';
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i === -1) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) throw new IngestCliError(`${name} needs a value`);
  return value;
}

function positive(text: string | undefined, what: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new IngestCliError(`${what} must be a positive integer, got "${text}"`);
  return n;
}

const operator = () => process.env.OPERATOR || userInfo().username;

async function importCommand(args: string[], open: () => Promise<Db>): Promise<void> {
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length !== 1)
    throw new IngestCliError('import takes exactly one file: npm run cli -- import <file.csv>');
  const file = files[0]!;
  if (!existsSync(file)) throw new IngestCliError(`No such file: ${file}`);
  const json = args.includes('--json');
  const atomic = !args.includes('--partial');
  const rows = parseReadingsCsv(readFileSync(file, 'utf8'));
  const db = await open();
  const started = performance.now();
  let receipt: Awaited<ReturnType<typeof ingestBatch>>;
  try {
    receipt = await ingestBatch(db, rows, { atomic, source: 'csv' });
  } catch (err) {
    if (json && err instanceof IngestError) {
      console.log(JSON.stringify(receiptBody(null, atomic, err, rows), null, 2));
      process.exitCode = 1;
      return;
    }
    throw err;
  }
  if (json) {
    console.log(JSON.stringify(receiptBody(null, atomic, receipt, rows), null, 2));
    return;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`Rows read:     ${receipt.rows}`);
  console.log(`New readings:  ${receipt.newReadings}`);
  console.log(`Duplicates:    ${receipt.duplicate}`);
  console.log(
    `Quarantined:   ${receipt.quarantined}${receipt.quarantined ? ' (npm run cli -- data-issues list)' : ''}`,
  );
  if (!atomic) console.log(`Refused:       ${receipt.refused}`);
  for (const r of receipt.results.filter((x) => x.status === 'refused').slice(0, 20)) {
    console.log(`  line ${r.line}: ${r.reason}`);
  }
  console.log(`Hours updated: ${receipt.hoursUpdated}`);
  console.log(`Days updated:  ${receipt.daysUpdated}`);
  console.log(
    `Time:          ${seconds.toFixed(2)} s (${Math.round(receipt.rows / Math.max(seconds, 1e-3))} rows/s)`,
  );
}

async function dataIssuesCommand(args: string[], open: () => Promise<Db>): Promise<void> {
  const [sub, idText] = args;
  const note = option(args, '--note');
  if (sub === 'list') {
    const status = (option(args, '--status') ?? 'open') as 'open' | 'accepted' | 'rejected' | 'all';
    if (!['open', 'accepted', 'rejected', 'all'].includes(status)) {
      throw new IngestCliError('--status is open, accepted, rejected or all');
    }
    const property = option(args, '--property');
    const issues = await listIssues(await open(), {
      status,
      propertyIds: property ? [positive(property, '--property')] : undefined,
      limit: 1000,
    });
    if (args.includes('--json')) {
      console.log(JSON.stringify(issues, null, 2));
      return;
    }
    if (issues.length === 0) console.log(`No ${status === 'all' ? '' : `${status} `}data issues.`);
    for (const i of issues) {
      console.log(
        `#${i.id} ${i.status} ${i.kind} meter ${i.meterNumber} at ${i.readingTs}${i.readingValue === null ? '' : ` value ${i.readingValue}`} (${i.source})${i.resolution ? ` as ${i.resolution}` : ''}`,
      );
      console.log(`    ${i.evidence.reason}`);
    }
    return;
  }
  if (sub === 'accept' || sub === 'reject') {
    const id = positive(idText, 'The issue id');
    const db = await open();
    try {
      const issue =
        sub === 'reject'
          ? await rejectIssue(db, id, operator(), note)
          : await acceptIssue(db, id, {
              as: (option(args, '--as') ?? '') as 'correct',
              by: operator(),
              note,
              newMeter: option(args, '--new-meter'),
              endValue: option(args, '--end-value'),
            });
      console.log(`Data issue #${id} ${issue.status}${issue.resolution ? ` as ${issue.resolution}` : ''}.`);
    } catch (err) {
      if (err instanceof DataIssueError) throw new IngestCliError(err.message);
      throw err;
    }
    return;
  }
  throw new IngestCliError('Usage: data-issues list|accept <id> --as …|reject <id>');
}

async function apiKeyCommand(args: string[], open: () => Promise<Db>): Promise<void> {
  const [sub, arg] = args;
  const db = await open();
  try {
    if (sub === 'create') {
      if (!arg || arg.startsWith('--'))
        throw new IngestCliError('Usage: api-key create <name> --property <id>[,<id>…]');
      const ids = (option(args, '--property') ?? '')
        .split(',')
        .filter(Boolean)
        .map((p) => positive(p, '--property'));
      const { key, info } = await createApiKey(db, { name: arg, propertyIds: ids, by: operator() });
      console.log(`API key #${info.id} "${info.name}" for properties ${info.propertyIds.join(', ')}:`);
      console.log(key);
      console.log(
        'It is shown only now; store it in the sending system. Revoke with: npm run cli -- api-key revoke ' +
          info.id,
      );
      return;
    }
    if (sub === 'list') {
      const keys = await listApiKeys(db);
      if (keys.length === 0) console.log('No API keys.');
      const days = await keyDays(
        db,
        keys.map((k) => k.id),
        KEY_ACTIVITY_DAYS,
      );
      for (const k of keys) {
        console.log(
          `#${k.id} ${k.prefix}… "${k.name}" properties ${k.propertyIds.join(',')} created ${k.createdAt} by ${k.createdBy}; last used ${k.lastUsedAt ?? 'never'}${k.revokedAt ? `; REVOKED ${k.revokedAt}` : ''}`,
        );
        console.log(`  last 7 days: ${activityLine(days.filter((d) => d.apiKeyId === k.id))}`);
      }
      return;
    }
    if (sub === 'revoke') {
      const k = await revokeApiKey(db, positive(arg, 'The key id'));
      console.log(`API key #${k.id} "${k.name}" revoked at ${k.revokedAt}.`);
      return;
    }
  } catch (err) {
    if (err instanceof ApiKeyError) throw new IngestCliError(err.message);
    throw err;
  }
  throw new IngestCliError('Usage: api-key create <name> --property <ids>|list|revoke <id>');
}

/** A key's days (keyActivity.ts) in one line: the console's "Last 7 days" column, for the CLI. */
function activityLine(days: KeyDay[]): string {
  if (days.length === 0) return 'nothing sent';
  const sum = (f: 'batches' | 'rows' | 'accepted' | 'duplicate' | 'refused' | 'quarantined') =>
    days.reduce((n, d) => n + d[f], 0);
  const refusal = days.find((d) => d.lastRefusal);
  return (
    `${sum('batches')} ${sum('batches') === 1 ? 'batch' : 'batches'}, ${sum('rows')} ${sum('rows') === 1 ? 'row' : 'rows'}: ` +
    `${sum('accepted')} accepted, ${sum('duplicate')} duplicate, ` +
    `${sum('refused')} refused, ${sum('quarantined')} quarantined` +
    (refusal ? `; last refused ${refusal.lastRefusalAt}: ${refusal.lastRefusal}` : '')
  );
}

async function meterCommand(args: string[], open: () => Promise<Db>): Promise<void> {
  const [sub, number, value] = args;
  if (!number) throw new IngestCliError('Usage: meter radio-id|profile|swap <number> …');
  const db = await open();
  const update = async (set: ReturnType<typeof sql>) => {
    try {
      const rows = await queryRows<{ id: number }>(
        db,
        sql`UPDATE meters SET ${set} WHERE number = ${number} RETURNING id`,
      );
      if (rows.length === 0) throw new IngestCliError(`Unknown meter "${number}"`);
    } catch (err) {
      if (err instanceof IngestCliError) throw err;
      throw new IngestCliError(`Meter ${number} not changed: ${(err as Error).message}`);
    }
  };
  if (sub === 'radio-id') {
    if (!value) throw new IngestCliError('Usage: meter radio-id <number> <radio-id|none>');
    const radio = value === 'none' ? null : value.trim();
    await update(sql`radio_id = ${radio}`);
    console.log(`Meter ${number}: radio id ${radio ?? 'cleared'}.`);
    return;
  }
  if (sub === 'profile') {
    const digits = option(args, '--rollover-digits');
    const resetOn = option(args, '--reset-on');
    if (digits !== undefined) {
      const n = digits === 'none' ? null : Number(digits);
      if (n !== null && (!Number.isInteger(n) || n < 1 || n > 12)) {
        throw new IngestCliError('--rollover-digits is 1 to 12, or none');
      }
      await update(sql`rollover_digits = ${n}`);
    }
    if (resetOn !== undefined) {
      const ok =
        resetOn === 'none' ||
        (/^\d\d-\d\d$/.test(resetOn) &&
          !Number.isNaN(Date.parse(`2025-${resetOn}T00:00:00Z`)) &&
          new Date(`2025-${resetOn}T00:00:00Z`).toISOString().slice(5, 10) === resetOn);
      if (!ok) throw new IngestCliError('--reset-on is a date MM-DD (not 02-29), or none');
      await update(sql`reset_on = ${resetOn === 'none' ? null : resetOn}`);
    }
    console.log(`Meter ${number}: profile updated.`);
    return;
  }
  if (sub === 'swap') {
    const need = (name: string) => {
      const v = option(args, name);
      if (v === undefined) throw new IngestCliError(`meter swap needs ${name}`);
      return v;
    };
    try {
      const receipt = await recordSwap(db, {
        meter: number,
        at: need('--at'),
        newMeter: need('--new-meter'),
        startValue: need('--start-value'),
        endValue: option(args, '--end-value'),
        radioId: option(args, '--radio-id'),
        source: 'cli',
      });
      console.log(
        `Meter ${number} swapped for ${option(args, '--new-meter')}; ${receipt.newReadings} reading(s) stored.`,
      );
    } catch (err) {
      if (err instanceof DataIssueError) throw new IngestCliError(err.message);
      throw err;
    }
    return;
  }
  throw new IngestCliError('Usage: meter radio-id|profile|swap <number> …');
}

/** Runs an ingestion command; false when the command is not one of ours. */
export async function runIngestCommand(
  command: string,
  args: string[],
  open: () => Promise<Db>,
): Promise<boolean> {
  if (command === 'import') await importCommand(args, open);
  else if (command === 'data-issues') await dataIssuesCommand(args, open);
  else if (command === 'api-key') await apiKeyCommand(args, open);
  else if (command === 'meter') await meterCommand(args, open);
  else return false;
  return true;
}

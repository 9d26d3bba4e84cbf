/**
 * Operator CLI: `npm run cli -- <command>`.
 *   import <file.csv>   import meter readings (all or nothing)
 *   demo:seed           load the demo dataset into an empty database
 *   demo:catch-up       generate demo readings up to the current hour
 *   help                this text
 */
import { existsSync } from 'node:fs';
import { progressPrinter } from './demo/progress.ts';
import { catchUpDemo, DEMO_PASSWORD, DEMO_USERS, isDatabaseEmpty, seedDemo } from './demo/seed.ts';
import { afterDemoSeed } from './demo/statements.ts';
import { importReadingsCsv } from './ingest/csv.ts';
import { IngestError } from './ingest/ingest.ts';
import { CliInputError, REPORTS_HELP, runReportsCommand } from './reports/cli.ts';
import { getServices } from './runtime.ts';
import { runStatementsCommand, STATEMENTS_HELP } from './statements/cli.ts';

const HELP = `Usage: npm run cli -- <command>

Commands:
  import <file.csv>   Import meter readings. Columns: meter_number,timestamp,value (with a header).
                      Timestamps are ISO 8601 with an offset or Z. A bad row rejects the whole file.
  demo:seed           Load the demo dataset, if the database is empty (DEMO_DAYS, DEMO_APARTMENTS).
  demo:catch-up       Generate demo readings from the last generated hour up to now.
${REPORTS_HELP}
${STATEMENTS_HELP}
  help                Show this text.

The database is PGlite under DATA_DIR (default ./data), or PostgreSQL when DATABASE_URL is set.`;

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive integer, got "${raw}"`);
  return n;
}

class UsageError extends Error {}

async function run(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(HELP);
    return;
  }
  if (command === 'import') {
    if (rest.length !== 1)
      throw new UsageError('import takes exactly one file: npm run cli -- import <file.csv>');
    const file = rest[0]!;
    if (!existsSync(file)) throw new UsageError(`No such file: ${file}`);
    const { database } = await getServices();
    try {
      const started = performance.now();
      const result = await importReadingsCsv(database.db, file);
      const seconds = (performance.now() - started) / 1000;
      console.log(`Rows read:     ${result.rows}`);
      console.log(`New readings:  ${result.newReadings}`);
      console.log(`Hours updated: ${result.hoursUpdated}`);
      console.log(`Days updated:  ${result.daysUpdated}`);
      console.log(
        `Time:          ${seconds.toFixed(2)} s (${Math.round(result.rows / Math.max(seconds, 1e-3))} rows/s)`,
      );
    } finally {
      await database.close();
    }
    return;
  }
  if (command === 'demo:seed' || command === 'demo:catch-up') {
    if (rest.length > 0) throw new UsageError(`${command} takes no arguments`);
    const days = positiveInt('DEMO_DAYS', 730);
    const apartments = Math.max(3, positiveInt('DEMO_APARTMENTS', 24));
    const { database } = await getServices();
    try {
      if (command === 'demo:seed') {
        if (!(await isDatabaseEmpty(database.db))) {
          console.log(
            'The database is not empty; nothing seeded. (demo:catch-up brings demo data up to now.)',
          );
          return;
        }
        const started = performance.now();
        await seedDemo(database.db, {
          now: new Date(),
          days,
          apartments,
          onProgress: progressPrinter('seed'),
        });
        await afterDemoSeed(database.db, new Date());
        console.log(
          `Seeded ${days} days × ${apartments} apartments in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
        );
        console.log(`Demo logins (password ${DEMO_PASSWORD}): ${DEMO_USERS.map((u) => u.email).join(', ')}`);
      } else {
        const result = await catchUpDemo(database.db, {
          now: new Date(),
          onProgress: progressPrinter('catch-up'),
        });
        console.log(
          result.hours === 0
            ? 'Demo data is up to date.'
            : `Caught up ${result.hours} hour(s), ${result.readings} readings.`,
        );
      }
    } finally {
      await database.close();
    }
    return;
  }
  const services = { open: null as Awaited<ReturnType<typeof getServices>> | null };
  const open = async () => {
    services.open ??= await getServices();
    return services.open.database.db;
  };
  try {
    if (await runReportsCommand(command, rest, open)) return;
    if (await runStatementsCommand(command, rest, open)) return;
  } finally {
    await services.open?.database.close();
  }
  throw new UsageError(`Unknown command "${command}".\n\n${HELP}`);
}

run(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    if (err instanceof IngestError || err instanceof UsageError || err instanceof CliInputError)
      console.error(err.message);
    else console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);

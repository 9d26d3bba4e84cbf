/**
 * Operator CLI: `npm run cli -- <command>`.
 *   import <file.csv>                 import meter readings (all or nothing)
 *   import-property <file.json|.csv>  a property with apartments, meters and tenancies (all or nothing)
 *   activation-code <tenancy>         a new 12-letter activation code
 *   invite <tenancy> <email>          mail an invitation with a code link
 *   deactivate <email>                refuse a user everywhere, end their sessions
 *   impersonate <email> [reason]      a one-time support link
 *   demo:seed                         load the demo dataset into an empty database
 *   demo:catch-up                     generate demo readings up to the current hour
 *   backup <file> / restore <file>    a consistent backup through the engine / load one (backup/)
 *   help                              this text
 */
import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { issueImpersonationLink } from './account/impersonation.ts';
import { importProperty, PropertyImportError } from './account/importProperty.ts';
import { importPropertyCsv } from './account/importPropertyCsv.ts';
import { deactivateUser, inviteAsOperator, issueActivationCode, OperatorError } from './account/operator.ts';
import { OPERATOR_HELP, runOperatorCommand } from './admin/cli.ts';
import { BACKUP_HELP, BackupError, runBackupCommand } from './backup/cli.ts';
import { DataDirBusyError, dataDirOwner } from './db/dataDirLock.ts';
import { SchemaBehindError } from './db/schemaVersion.ts';
import { catchUpDemo } from './demo/catchUp.ts';
import { seedDemoDataIssues } from './demo/dataIssues.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './demo/logins.ts';
import { progressPrinter } from './demo/progress.ts';
import { seedDemo } from './demo/seed.ts';
import { afterDemoSeed } from './demo/statements.ts';
import { isDatabaseEmpty } from './demo/stored.ts';
import { INGEST_HELP, IngestCliError, runIngestCommand } from './ingest/cli.ts';
import { IngestError } from './ingest/ingest.ts';
import { MQTT_HELP, runMqttCommand } from './mqtt/cli.ts';
import { checkNodeVersion } from './nodeVersion.ts';
import { CliInputError, REPORTS_HELP, runReportsCommand } from './reports/cli.ts';
import { getServices, setProcessRole } from './runtime.ts';
import { runStatementsCommand, STATEMENTS_HELP } from './statements/cli.ts';

const HELP = `Usage: npm run cli -- <command>

Commands:
  import-property <file.json|file.csv>
                      Create a property with its apartments, measurement points, meters and tenancies
                      from one JSON file (docs/notes/accounts.md) or CSV file, by the .csv extension
                      (docs/notes/accounts2.md). Validated whole; errors name the CSV line; an error writes nothing.
  activation-code <tenancy>
                      Print a new random 12-letter activation code for the tenancy (landlord's reference,
                      e.g. T-1001-3, or numeric id). It expires after 30 days.
  invite <tenancy> <email>
                      Mail an invitation with an activation-code link (SMTP_URL, else the mail_outbox table).
  deactivate <email>  Deactivate a user: every request is refused from now on and every session ends.
  impersonate <email> [reason]
                      Print a one-time link /impersonate/{token} (expires in 10 minutes) that opens a
                      60-minute session as the user. Recorded with operator (IMPERSONATOR or the OS user),
                      user and time. APP_URL sets the link's origin.
  demo:seed           Load the demo dataset, if the database is empty (DEMO_DAYS, DEMO_APARTMENTS).
  demo:catch-up       Generate demo readings from the last generated hour up to now.
${INGEST_HELP}
${MQTT_HELP}
${REPORTS_HELP}
${STATEMENTS_HELP}
${OPERATOR_HELP}
${BACKUP_HELP}
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

const COMMAND_HELP: Record<string, string> = {
  'import-property':
    'Usage: npm run cli -- import-property <file.json|file.csv>\nFormats: JSON in docs/notes/accounts.md, CSV (by the .csv extension) in docs/notes/accounts2.md. Validated whole; an error writes nothing.',
  'activation-code':
    "Usage: npm run cli -- activation-code <tenancy>\n<tenancy> is the landlord's tenancy reference or the numeric id.",
  invite: 'Usage: npm run cli -- invite <tenancy> <email>\nMails an invitation with an activation-code link.',
  deactivate:
    'Usage: npm run cli -- deactivate <email>\nThe user is refused on every request, and every session ends.',
  impersonate:
    'Usage: npm run cli -- impersonate <email> [reason]\nPrints a one-time link (10 minutes) for a 60-minute session as the user; recorded.',
};

/** Runs an account command with the services open; closes the database afterwards. */
async function withDatabase<T>(
  work: (services: Awaited<ReturnType<typeof getServices>>) => Promise<T>,
): Promise<T> {
  const services = await getServices();
  try {
    return await work(services);
  } finally {
    await services.database.close();
  }
}

/**
 * The origin for links the CLI prints: APP_URL when set; else the running server's real address (it tells the
 * embedded database's lock, see dataDirLock.ts); else the HOST:PORT default, with a warning.
 */
async function linkOrigin(config: Awaited<ReturnType<typeof getServices>>['config']): Promise<string> {
  if (process.env.APP_URL) return config.APP_URL;
  if (!config.DATABASE_URL) {
    const owner = await dataDirOwner(join(config.dataDir, 'pglite'));
    if (owner?.origin) return owner.origin;
  }
  console.error(
    `APP_URL is not set: the link uses ${config.APP_URL}; set APP_URL to the address users open.`,
  );
  return config.APP_URL;
}

async function runAccountCommand(command: string, rest: string[]): Promise<boolean> {
  if (!(command in COMMAND_HELP)) return false;
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(COMMAND_HELP[command]);
    return true;
  }
  const arity: Record<string, [number, number]> = {
    'import-property': [1, 1],
    'activation-code': [1, 1],
    invite: [2, 2],
    deactivate: [1, 1],
    impersonate: [1, 2],
  };
  const [min, max] = arity[command]!;
  if (rest.length < min || rest.length > max) throw new UsageError(COMMAND_HELP[command]!);
  if (command === 'import-property') {
    const file = rest[0]!;
    if (!existsSync(file)) throw new UsageError(`No such file: ${file}`);
    if (file.toLowerCase().endsWith('.csv')) {
      const text = readFileSync(file, 'utf8');
      const result = await withDatabase(({ database }) => importPropertyCsv(database.db, text));
      console.log(
        `Imported property #${result.propertyId}: ${result.apartments} apartments, ${result.measurementPoints} measurement points, ${result.meters} meters, ${result.tenancies} tenancies.`,
      );
      return true;
    }
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new UsageError(`${file} is not valid JSON: ${(err as Error).message}`);
    }
    const result = await withDatabase(({ database }) => importProperty(database.db, json));
    console.log(
      `Imported property #${result.propertyId}: ${result.apartments} apartments, ${result.measurementPoints} measurement points, ${result.meters} meters, ${result.tenancies} tenancies.`,
    );
    return true;
  }
  if (command === 'activation-code') {
    const { tenancy, code, expiresAt } = await withDatabase(({ database }) =>
      issueActivationCode(database.db, rest[0]!),
    );
    console.log(
      `Activation code for tenancy ${tenancy.tenancyId}: ${code} (valid until ${expiresAt.toISOString()})`,
    );
    return true;
  }
  if (command === 'invite') {
    const done = await withDatabase((services) =>
      inviteAsOperator(services, services.database.db, rest[0]!, rest[1]!),
    );
    const where = process.env.SMTP_URL ? 'by SMTP' : 'to the mail_outbox table (SMTP_URL is unset)';
    console.log(
      `Invited ${done.email} to tenancy ${done.tenancy.tenancyId} with code ${done.code}; mail sent ${where}.`,
    );
    return true;
  }
  if (command === 'deactivate') {
    const user = await withDatabase(({ database }) => deactivateUser(database.db, rest[0]!));
    console.log(`Deactivated ${user.email} (user #${user.id}); every session has ended.`);
    return true;
  }
  const operator = process.env.IMPERSONATOR || userInfo().username;
  const issued = await withDatabase(async ({ database, config }) =>
    issueImpersonationLink(database.db, await linkOrigin(config), rest[0]!, operator, rest[1] ?? '').catch(
      (err: Error) => {
        throw new OperatorError(err.message);
      },
    ),
  );
  console.log(
    `One-time link for ${rest[0]} (expires in ${issued.minutes} minutes; recorded as issued by ${operator}):`,
  );
  console.log(issued.link);
  return true;
}

async function run(args: string[]): Promise<void> {
  // Never migrates; beside a running server it works through the server's embedded database.
  checkNodeVersion();
  setProcessRole('cli');
  const [command, ...rest] = args;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(HELP);
    return;
  }
  if (await runAccountCommand(command, rest)) return;
  if (command === 'mqtt') {
    const { database } = await getServices();
    try {
      if (!(await runMqttCommand(database.db, rest))) throw new UsageError(MQTT_HELP.trim());
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
        await seedDemoDataIssues(database.db, new Date());
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
    if (await runIngestCommand(command, rest, open)) return;
    if (await runReportsCommand(command, rest, open)) return;
    if (await runStatementsCommand(command, rest, open)) return;
    if (await runOperatorCommand(command, rest, open)) return;
    if (await runBackupCommand(command, rest, open)) return;
  } finally {
    await services.open?.database.close();
  }
  throw new UsageError(`Unknown command "${command}".\n\n${HELP}`);
}

run(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    if (
      err instanceof IngestError ||
      err instanceof IngestCliError ||
      err instanceof UsageError ||
      err instanceof CliInputError ||
      err instanceof OperatorError ||
      err instanceof PropertyImportError ||
      err instanceof DataDirBusyError ||
      err instanceof BackupError ||
      err instanceof SchemaBehindError
    )
      console.error(err.message);
    else console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);

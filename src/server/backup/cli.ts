/** `npm run cli -- backup <file>` and `restore <file> [--replace]` (backup.ts). */
import type { Db } from '../db/client.ts';
import { BackupError, backupDatabase, restoreDatabase } from './backup.ts';

export const BACKUP_HELP = `  backup <file>       Write a consistent backup of the whole database to a new file (gzip), through the
                      engine: beside a running server it goes through the server's database (requests wait
                      while it reads; docs/deploy.md). Never overwrites a file.
  restore <file> [--replace]
                      Load a backup into a database migrated by the same version (npm run db:migrate first),
                      in one transaction. Refuses a database with data unless --replace.`;

export { BackupError };

export async function runBackupCommand(
  command: string,
  args: string[],
  open: () => Promise<Db>,
): Promise<boolean> {
  if (command !== 'backup' && command !== 'restore') return false;
  const replace = args.includes('--replace');
  const files = args.filter((a) => a !== '--replace');
  if (files.length !== 1 || (command === 'backup' && replace))
    throw new BackupError(
      command === 'backup'
        ? 'Usage: npm run cli -- backup <file>'
        : 'Usage: npm run cli -- restore <file> [--replace]',
    );
  const started = performance.now();
  const summary =
    command === 'backup'
      ? await backupDatabase(await open(), files[0]!)
      : await restoreDatabase(await open(), files[0]!, { replace });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const tables = Object.keys(summary.tables).length;
  console.log(
    command === 'backup'
      ? `Backed up ${summary.rows} rows of ${tables} tables into ${summary.file} (${summary.bytes} bytes) in ${seconds} s.`
      : `Restored ${summary.rows} rows of ${tables} tables from ${summary.file} in ${seconds} s.`,
  );
  return true;
}

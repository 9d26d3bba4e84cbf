/** `npm run cli -- import-statement <file.json>`: import annual allocation statements (all or nothing). */
import { existsSync } from 'node:fs';
import type { Db } from '../db/client.ts';
import { CliInputError } from '../reports/cli.ts';
import { importStatementFile, StatementImportError } from './import.ts';

export const STATEMENTS_HELP = `  import-statement <file.json>
                      Import annual heat allocation statements: one statement, or {"statements": [...]}.
                      Fields: tenancy, periodStart, periodEnd, currency, fixedSharePercent, variableSharePercent,
                      area {tenantM2, propertyM2}, consumption {unit, tenant, property}, expenses [{type,
                      propertyTotal, tenantFixed, tenantVariable}], advancePayments, balance (optional),
                      degreeDays {period, normalYear}, objectionDeadline. Any problem imports nothing.`;

/** Runs a statements command; false when the command is not one of ours. */
export async function runStatementsCommand(
  command: string,
  args: string[],
  open: () => Promise<Db>,
): Promise<boolean> {
  if (command !== 'import-statement') return false;
  if (args.length !== 1)
    throw new CliInputError(
      'import-statement takes exactly one file: npm run cli -- import-statement <file.json>',
    );
  const file = args[0]!;
  if (!existsSync(file)) throw new CliInputError(`No such file: ${file}`);
  try {
    const { imported } = await importStatementFile(await open(), file);
    console.log(`Imported ${imported} statement(s).`);
  } catch (error) {
    if (error instanceof StatementImportError) throw new CliInputError(error.message);
    throw error;
  }
  return true;
}

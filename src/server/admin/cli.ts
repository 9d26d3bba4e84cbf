/**
 * `npm run cli -- operator create <email> [--role org_admin|property_manager] [--organisation <id|name>]
 * [--property <number>]…`: an operator of the console, for the first organisation admin especially. Prints a
 * first password once; the second factor is set up at the first console login. Audited as `cli:<os user>`.
 */
import { userInfo } from 'node:os';
import { inArray } from 'drizzle-orm';
import { GraphQLError } from 'graphql';
import type { Db } from '../db/client.ts';
import { accounts, properties } from '../db/schema.ts';
import { CliInputError } from '../reports/cli.ts';
import { createOperator } from './operators.ts';
import { findOrganisation, soleOrganisation } from './organisations.ts';
import type { Role } from './scope.ts';

export const OPERATOR_HELP = `  operator create <email> [--role org_admin|property_manager] [--organisation <id|name>] [--property <number>]…
                      Create an operator of the console at /admin (default role org_admin). --organisation
                      may be left out when there is one; a name that does not exist creates it. A property
                      manager needs --property once per property (the landlord's property number). Prints
                      a first password once; TOTP is set up at the first login.`;

function options(args: string[]) {
  const found: { role?: string; organisation?: string; properties: string[]; rest: string[] } = {
    properties: [],
    rest: [],
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--role' || arg === '--organisation' || arg === '--property') {
      const value = args[++i];
      if (value === undefined || value.startsWith('--')) throw new CliInputError(`${arg} needs a value`);
      if (arg === '--role') found.role = value;
      else if (arg === '--organisation') found.organisation = value;
      else found.properties.push(value);
    } else if (arg.startsWith('--')) throw new CliInputError(`Unknown option ${arg}\n${OPERATOR_HELP}`);
    else found.rest.push(arg);
  }
  return found;
}

async function organisation(db: Db, given: string | undefined): Promise<number> {
  if (given === undefined) {
    const sole = await soleOrganisation(db);
    if (typeof sole === 'number') return sole;
    if (sole === 'none') {
      const [created] = await db.insert(accounts).values({ name: 'Organisation' }).returning();
      return created!.id;
    }
    throw new CliInputError('There are several organisations: name one with --organisation <id|name>.');
  }
  const found = await findOrganisation(db, given);
  if (found !== null) return found;
  const [created] = await db.insert(accounts).values({ name: given }).returning();
  return created!.id;
}

/** Runs `operator …`; false when the command is not ours. */
export async function runOperatorCommand(
  command: string,
  args: string[],
  open: () => Promise<Db>,
): Promise<boolean> {
  if (command !== 'operator') return false;
  const parsed = options(args);
  const [sub, email, ...extra] = parsed.rest;
  if (sub !== 'create' || !email || extra.length > 0) throw new CliInputError(`Usage:\n${OPERATOR_HELP}`);
  const role = (parsed.role ?? 'org_admin') as Role;
  if (role !== 'org_admin' && role !== 'property_manager') {
    throw new CliInputError('--role must be org_admin or property_manager');
  }
  const db = await open();
  const accountId = await organisation(db, parsed.organisation);
  const propertyIds = parsed.properties.length
    ? (await db.select().from(properties).where(inArray(properties.number, parsed.properties))).map((p) => {
        if (p.accountId !== accountId)
          throw new CliInputError(`Property ${p.number} is another organisation's.`);
        return p.id;
      })
    : [];
  if (propertyIds.length !== new Set(parsed.properties).size) {
    throw new CliInputError(`Unknown property number among: ${parsed.properties.join(', ')}`);
  }
  try {
    const { operator, initialPassword } = await createOperator(
      db,
      { operatorId: null, actor: `cli:${userInfo().username}` },
      { email, role, accountId, propertyIds },
    );
    console.log(`Created ${operator.email} (${operator.role}) in "${operator.accountName}".`);
    console.log(`First password (shown once): ${initialPassword}`);
    console.log('Log in at /admin/login; the second factor (TOTP) is set up at the first login.');
  } catch (err) {
    // A coded API error (GraphQLError; yoga's copy of the class is not always graphql's): the operator's mistake.
    if (err instanceof GraphQLError || (err instanceof Error && 'extensions' in err)) {
      throw new CliInputError(err.message);
    }
    throw err;
  }
  return true;
}

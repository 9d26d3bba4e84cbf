/**
 * When demo data (logins with a password printed in README) may load: by default only on the embedded database,
 * which is how a new user tries the app; on PostgreSQL only when asked for with DEMO_DATA=1. Under
 * NODE_ENV=production it is refused unless forced with DEMO_DATA_FORCE=1: a fresh production database is exactly
 * an empty database, and must not get published logins.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { activationCodes } from '../db/schema.ts';
import { DEMO_ACTIVATION_CODE } from './logins.ts';

/** Demo data was asked for where it is refused. */
export class DemoRefusedError extends Error {}

/** Whether this start loads demo data, and if not, why (for the log); throws DemoRefusedError when refused. */
export function demoDataDecision(
  env: Record<string, string | undefined>,
  engine: 'pglite' | 'postgres',
): { load: boolean; why: string } {
  const asked = env.DEMO_DATA;
  if (asked !== undefined && asked !== '' && asked !== '0' && asked !== '1')
    throw new DemoRefusedError(`DEMO_DATA must be 0 or 1, got "${asked}".`);
  if (asked === '0') return { load: false, why: 'DEMO_DATA=0' };
  const explicit = asked === '1';
  if (!explicit && engine === 'postgres')
    return { load: false, why: 'no demo data on PostgreSQL unless DEMO_DATA=1' };
  if (env.NODE_ENV === 'production' && env.DEMO_DATA_FORCE !== '1') {
    if (explicit)
      throw new DemoRefusedError(
        'DEMO_DATA=1 is refused with NODE_ENV=production: the demo logins have a published password. ' +
          'Set DEMO_DATA_FORCE=1 as well to load it anyway (a demo server only).',
      );
    return { load: false, why: 'no demo data with NODE_ENV=production' };
  }
  return { load: true, why: explicit ? 'DEMO_DATA=1' : 'embedded database' };
}

/** Whether the demo's activation code is still unused (the start banner prints it only then). */
export async function demoCodeUnused(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ usedAt: activationCodes.usedAt })
    .from(activationCodes)
    .where(eq(activationCodes.code, DEMO_ACTIVATION_CODE));
  return row !== undefined && row.usedAt === null;
}

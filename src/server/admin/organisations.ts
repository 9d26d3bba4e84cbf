/**
 * Finding an organisation (an `accounts` row) the way operators name one: by its id or exact name
 * (`npm run cli -- operator create --organisation`, `MQTT_ORGANISATION`), or as the deployment's only one.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accounts } from '../db/schema.ts';

/** The deployment's only organisation's id; 'none' without any, 'several' with more than one. */
export async function soleOrganisation(db: Db): Promise<number | 'none' | 'several'> {
  const all = await db.select({ id: accounts.id }).from(accounts).orderBy(accounts.id).limit(2);
  return all.length === 1 ? all[0]!.id : all.length === 0 ? 'none' : 'several';
}

/** The organisation with this id (when it is digits) or, failing that, this exact name; null when none has it. */
export async function findOrganisation(db: Db, idOrName: string): Promise<number | null> {
  if (/^\d{1,9}$/.test(idOrName)) {
    const [byId] = await db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.id, Number(idOrName)));
    if (byId) return byId.id;
  }
  const [byName] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.name, idOrName));
  return byName?.id ?? null;
}

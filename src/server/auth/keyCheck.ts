/**
 * Several app processes on one PostgreSQL database must sign tokens with the same keys, or a token from one is
 * refused by the next (a user is logged out at random behind a load balancer). Keys generated into each
 * process's DATA_DIR differ per process, so each process records its public keys' fingerprints in the
 * `signing_keys` table and checks them there at start:
 * - keys from ACCOUNT_/TENANT_/ADMIN_JWT_PRIVATE_KEY are the operator's choice: recorded (a rotation
 *   changes them in every process);
 * - generated keys are refused when the database already records different ones.
 * The embedded database is one process's (db/dataDirLock.ts), so it needs no check.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { exportJWK } from 'jose';
import type { ServerConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { signingKeys } from '../db/schema.ts';
import type { Backend, KeyRing } from './keys.ts';

/** This process's generated keys differ from the ones other processes sign with. */
export class KeyMismatchError extends Error {}

/** sha256 of a public key's raw bytes, hex. */
async function fingerprint(publicKey: CryptoKey): Promise<string> {
  const { x } = await exportJWK(publicKey);
  return createHash('sha256')
    .update(x ?? '')
    .digest('hex');
}

/** Records or checks the ring's fingerprints (PostgreSQL only); throws KeyMismatchError on a refusal. */
export async function checkSharedKeys(
  database: Database,
  config: Pick<ServerConfig, 'ACCOUNT_JWT_PRIVATE_KEY' | 'TENANT_JWT_PRIVATE_KEY' | 'ADMIN_JWT_PRIVATE_KEY'>,
  ring: KeyRing,
): Promise<void> {
  if (database.engine !== 'postgres') return;
  const configured: Record<Backend, boolean> = {
    account: Boolean(config.ACCOUNT_JWT_PRIVATE_KEY),
    tenant: Boolean(config.TENANT_JWT_PRIVATE_KEY),
    admin: Boolean(config.ADMIN_JWT_PRIVATE_KEY),
  };
  const variables: Record<Backend, string> = {
    account: 'ACCOUNT_JWT_PRIVATE_KEY',
    tenant: 'TENANT_JWT_PRIVATE_KEY',
    admin: 'ADMIN_JWT_PRIVATE_KEY',
  };
  for (const backend of ['account', 'tenant', 'admin'] as const) {
    const ours = await fingerprint(ring[backend].publicKey);
    const source = configured[backend] ? 'env' : 'generated';
    const insert = database.db.insert(signingKeys).values({ backend, fingerprint: ours, source });
    const [row] = configured[backend]
      ? await insert
          .onConflictDoUpdate({
            target: signingKeys.backend,
            set: { fingerprint: ours, source, updatedAt: sql`now()` },
          })
          .returning()
      : await insert
          .onConflictDoUpdate({
            target: signingKeys.backend,
            // A no-op update, so the stored row comes back either way.
            set: { backend: sql`${signingKeys.backend}` },
          })
          .returning();
    if (row && row.fingerprint !== ours) {
      const variable = variables[backend];
      throw new KeyMismatchError(
        `Refusing to start: another process on this PostgreSQL database signs ${backend} tokens with a different ` +
          `key (${row.source === 'env' ? `from ${variable}` : 'generated in its own DATA_DIR'}), and this one ` +
          `generated its own in DATA_DIR/keys. Tokens from one would be refused by the other. Give every process ` +
          `the same keys: set ACCOUNT_JWT_PRIVATE_KEY, TENANT_JWT_PRIVATE_KEY and ADMIN_JWT_PRIVATE_KEY (docs/deploy.md, "Keys").`,
      );
    }
  }
}

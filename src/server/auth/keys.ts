/**
 * Ed25519 signing keys, one per backend: from ACCOUNT_/TENANT_/ADMIN_JWT_PRIVATE_KEY (PKCS#8 PEM),
 * else generated once and kept in DATA_DIR/keys/<backend>.pem (mode 0600) so tokens survive restarts.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, exportPKCS8, generateKeyPair, importJWK, importPKCS8 } from 'jose';
import type { ServerConfig } from '../config.ts';

/** The token-issuing backends: the tenant app's two, and the operator console's. */
export type Backend = 'account' | 'tenant' | 'admin';

/** A backend's key pair; the private key signs, the public key verifies. */
export interface SigningKey {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

/** Every backend's keys. */
export type KeyRing = Record<Backend, SigningKey>;

const ALG = 'EdDSA';

/** Imports a PKCS#8 PEM Ed25519 private key and derives its public key. */
async function keyFromPem(pem: string): Promise<SigningKey> {
  const privateKey = await importPKCS8(pem, ALG, { extractable: true });
  const { d: _d, ...publicJwk } = await exportJWK(privateKey);
  const publicKey = (await importJWK({ ...publicJwk, alg: ALG }, ALG)) as CryptoKey;
  return { privateKey, publicKey };
}

/** Generates a fresh Ed25519 key pair (tests, first start). */
export async function generateSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true, crv: 'Ed25519' });
  return { privateKey, publicKey };
}

/** Generates both backends' keys in memory, for tests. */
export async function generateKeyRing(): Promise<KeyRing> {
  return {
    account: await generateSigningKey(),
    tenant: await generateSigningKey(),
    admin: await generateSigningKey(),
  };
}

async function loadOrCreatePem(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const { privateKey } = await generateSigningKey();
  const pem = await exportPKCS8(privateKey);
  try {
    // 'wx' fails if another process wrote the file first; then we use theirs.
    await writeFile(path, pem, { mode: 0o600, flag: 'wx' });
    return pem;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readFile(path, 'utf8');
  }
}

/** Loads the backends' keys from config, or from (or into) DATA_DIR/keys. */
export async function loadKeyRing(config: ServerConfig): Promise<KeyRing> {
  const dir = join(config.dataDir, 'keys');
  const pemFor = async (backend: Backend, configured: string | undefined): Promise<string> => {
    if (configured) return configured.replace(/\\n/g, '\n');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return loadOrCreatePem(join(dir, `${backend}.pem`));
  };
  return {
    account: await keyFromPem(await pemFor('account', config.ACCOUNT_JWT_PRIVATE_KEY)),
    tenant: await keyFromPem(await pemFor('tenant', config.TENANT_JWT_PRIVATE_KEY)),
    admin: await keyFromPem(await pemFor('admin', config.ADMIN_JWT_PRIVATE_KEY)),
  };
}

/** Password hashing with argon2id (OWASP-recommended parameters). */
import { hash, verify } from '@node-rs/argon2';

const ARGON2ID = 2;
const options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password with argon2id; the result embeds salt and parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

/** A fixed hash to verify against when the user is unknown, so timing does not reveal which emails exist. */
let dummyHash: Promise<string> | undefined;

/** Verifies a password; pass `null` for an unknown user to spend the same time and get `false`. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword('not-a-real-password-0A!');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

/**
 * Guessing throttles (rate-limiter-flexible, stored in our database's rate_limits table so every app process
 * shares them). Failed logins count per account and per client address on both backends together;
 * password reset, activation codes and signup count every attempt, and so does mail a user sends to an address
 * of their choice (invitations, resends, email-change links), per sender and per recipient.
 */
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyAttempts } from '../account/errors.ts';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';

/** Points per duration (s); when exceeded the key is blocked for blockSeconds. */
const LIMITS = {
  /** Failed logins (and wrong current passwords) per email. */
  loginAccount: { points: 10, duration: 15 * 60, blockSeconds: 15 * 60 },
  /** Failed logins per client address, whatever the email. */
  loginIp: { points: 100, duration: 60 * 60, blockSeconds: 60 * 60 },
  /** Reset mails asked for one email. */
  resetEmail: { points: 3, duration: 60 * 60, blockSeconds: 60 * 60 },
  /** Reset mails and reset-link uses per client address. */
  resetIp: { points: 20, duration: 60 * 60, blockSeconds: 60 * 60 },
  /** Activation-code checks per client address (validate and add). */
  activationIp: { points: 30, duration: 15 * 60, blockSeconds: 15 * 60 },
  /** Activation-code checks per signed-in user. */
  activationUser: { points: 30, duration: 15 * 60, blockSeconds: 15 * 60 },
  /** Signups per client address. */
  signupIp: { points: 10, duration: 60 * 60, blockSeconds: 60 * 60 },
  /** Mail a signed-in user has sent to an address they choose: invitations, their resends, email-change links. */
  mailSender: { points: 20, duration: 60 * 60, blockSeconds: 60 * 60 },
  /** Such mail to one address, whoever sends it. */
  mailRecipient: { points: 3, duration: 60 * 60, blockSeconds: 60 * 60 },
} as const;

/** The name of a throttle. */
export type ThrottleName = keyof typeof LIMITS;

type Limiters = Record<ThrottleName, RateLimiterDrizzle>;
const byDb = new WeakMap<Db, Limiters>();

/** The options of one throttle's limiter on a database. */
export function limiterOptions(db: Db, name: ThrottleName) {
  return {
    storeClient: db,
    schema: rateLimits,
    keyPrefix: name,
    points: LIMITS[name].points,
    duration: LIMITS[name].duration,
    blockDuration: LIMITS[name].blockSeconds,
    // No background timer per limiter: expired rows are overwritten on the key's next use, and the daily
    // sweep (jobs/tasks/sweep.ts) deletes the rest. The library's timer ran the same DELETE every 5 minutes
    // for each of these limiters in every process, and wrote a stack trace to the console when it fired
    // after the database had closed.
    clearExpiredByTimeout: false,
  };
}

function limiters(db: Db): Limiters {
  let found = byDb.get(db);
  if (!found) {
    found = Object.fromEntries(
      (Object.keys(LIMITS) as ThrottleName[]).map((name) => [
        name,
        new RateLimiterDrizzle(limiterOptions(db, name)),
      ]),
    ) as Limiters;
    byDb.set(db, found);
  }
  return found;
}

/** A throttle key; null (unknown client address) skips that throttle. */
type Key = string | null;

/**
 * Counts an attempt against each key before anything is checked, and throws TOO_MANY_ATTEMPTS when one goes over
 * its limit. The count is one atomic upsert per key (rate-limiter-flexible's INSERT … ON CONFLICT DO UPDATE), so
 * of any number of parallel attempts at most the limit get through to the secret: checking first and counting
 * after let a burst of 300 guesses all be checked (issue 24). Paths that count only failures hand the point back
 * on success (`refundAttempt`).
 */
export async function consumeAttempt(db: Db, checks: Array<[ThrottleName, Key]>): Promise<void> {
  const all = limiters(db);
  for (const [name, key] of checks) {
    if (key === null) continue;
    try {
      await all[name].consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooManyAttempts(err.msBeforeNext);
      throw err;
    }
  }
}

/**
 * Counts a failure against each key without throwing for being over the limit: for an attempt that passed the
 * check and failed after it (a tenant's right password at the operator console).
 */
export async function countFailure(db: Db, checks: Array<[ThrottleName, Key]>): Promise<void> {
  await consumeAttempt(db, checks).catch((err: unknown) => {
    if ((err as { extensions?: { code?: string } }).extensions?.code !== 'TOO_MANY_ATTEMPTS') throw err;
  });
}

/** Gives back the point an attempt took (it succeeded, and only failures count). */
export async function refundAttempt(db: Db, checks: Array<[ThrottleName, Key]>): Promise<void> {
  const all = limiters(db);
  for (const [name, key] of checks) if (key !== null) await all[name].reward(key, 1);
}

/** Forgets the failures of a key (a successful login clears its account's count). */
export async function clearThrottle(db: Db, name: ThrottleName, key: Key): Promise<void> {
  if (key === null) return;
  await limiters(db)[name].delete(key);
}

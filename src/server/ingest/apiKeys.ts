/**
 * Operator API keys of the ingestion API (`npm run cli -- api-key create|list|revoke`). A key is
 * `tk_<prefix>_<secret>`, shown once; the database keeps its SHA-256 (a random 256-bit secret needs no slow hash)
 * and its first characters for lists. Each key is scoped to one or more properties and rate limited.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { RateLimiterDrizzle } from 'rate-limiter-flexible';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { pgNumberArray, queryRows } from '../db/sql.ts';

export class ApiKeyError extends Error {
  override name = 'ApiKeyError';
}

export interface ApiKeyInfo {
  id: number;
  name: string;
  prefix: string;
  propertyIds: number[];
  createdAt: string;
  createdBy: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const hash = (key: string) => createHash('sha256').update(key).digest('hex');

/** Makes a key for the properties; returns it (the only time it is shown) with its record. */
export async function createApiKey(
  db: Db,
  input: { name: string; propertyIds: number[]; by: string },
): Promise<{ key: string; info: ApiKeyInfo }> {
  const name = input.name.trim();
  if (!name) throw new ApiKeyError('A key needs a name');
  const ids = [...new Set(input.propertyIds)];
  if (ids.length === 0 || ids.some((id) => !Number.isInteger(id) || id < 1)) {
    throw new ApiKeyError('A key needs one or more property ids (positive integers)');
  }
  const found = await queryRows<{ id: number }>(
    db,
    sql`SELECT id FROM properties WHERE id = ANY(${pgNumberArray(ids)}::int[])`,
  );
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length > 0) throw new ApiKeyError(`No such property: ${missing.join(', ')}`);
  const prefix = randomBytes(4).toString('hex');
  const key = `tk_${prefix}_${randomBytes(32).toString('base64url')}`;
  const id = await db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    const [row] = await queryRows<{ id: number }>(
      tx,
      sql`INSERT INTO api_keys (name, prefix, secret_hash, created_by)
          VALUES (${name}, ${`tk_${prefix}`}, ${hash(key)}, ${input.by}) RETURNING id`,
    );
    await tx.execute(sql`INSERT INTO api_key_properties (api_key_id, property_id)
      SELECT ${row!.id}, unnest(${pgNumberArray(ids)}::int[])`);
    return row!.id;
  });
  const [info] = await listApiKeys(db, id);
  return { key, info: info! };
}

/** Every key (or one), newest first, without secrets. */
export async function listApiKeys(db: Db, id?: number): Promise<ApiKeyInfo[]> {
  const rows = await queryRows<ApiKeyInfo & Record<string, unknown>>(
    db,
    sql`SELECT k.id, k.name, k.prefix, k.created_at AS "createdAt", k.created_by AS "createdBy",
          k.last_used_at AS "lastUsedAt", k.revoked_at AS "revokedAt",
          coalesce(array_agg(p.property_id ORDER BY p.property_id) FILTER (WHERE p.property_id IS NOT NULL), '{}') AS "propertyIds"
        FROM api_keys k LEFT JOIN api_key_properties p ON p.api_key_id = k.id
        ${id === undefined ? sql`` : sql`WHERE k.id = ${id}`}
        GROUP BY k.id ORDER BY k.id DESC`,
  );
  const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());
  return rows.map((r) => ({
    ...r,
    propertyIds: (r.propertyIds as unknown[]).map(Number),
    createdAt: iso(r.createdAt)!,
    lastUsedAt: iso(r.lastUsedAt),
    revokedAt: iso(r.revokedAt),
  }));
}

/** Revokes a key: every later request with it is refused. */
export async function revokeApiKey(db: Db, id: number): Promise<ApiKeyInfo> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = ${id} RETURNING id`,
  );
  if (rows.length === 0) throw new ApiKeyError(`No API key #${id}`);
  return (await listApiKeys(db, id))[0]!;
}

/** The key's id and properties for a bearer secret, recording its use; null when unknown or revoked. */
export async function authenticateApiKey(
  db: Db,
  key: string,
): Promise<{ id: number; propertyIds: number[] } | null> {
  if (!/^tk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/.test(key)) return null;
  const [row] = await queryRows<{ id: number; property_ids: number[] }>(
    db,
    sql`UPDATE api_keys k SET last_used_at = now()
        WHERE k.secret_hash = ${hash(key)} AND k.revoked_at IS NULL
        RETURNING k.id, ARRAY(SELECT property_id FROM api_key_properties WHERE api_key_id = k.id) AS property_ids`,
  );
  return row ? { id: row.id, propertyIds: row.property_ids.map(Number) } : null;
}

const limiters = new WeakMap<Db, RateLimiterDrizzle>();

/**
 * Counts a request of the key against its limit (`perMinute` requests a minute, stored in rate_limits so every
 * app process shares it); returns the milliseconds to wait when it is over, else 0.
 */
export async function consumeKeyRequest(db: Db, keyId: number, perMinute: number): Promise<number> {
  let limiter = limiters.get(db);
  if (!limiter || limiter.points !== perMinute) {
    limiter = new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix: 'ingestKey',
      points: perMinute,
      duration: 60,
      clearExpiredByTimeout: false,
    });
    limiters.set(db, limiter);
  }
  try {
    await limiter.consume(String(keyId));
    return 0;
  } catch (res) {
    if (res instanceof Error) throw res;
    return Math.max(1, (res as { msBeforeNext: number }).msBeforeNext);
  }
}

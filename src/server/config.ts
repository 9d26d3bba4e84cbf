/** Run-time configuration, parsed once with zod; a bad value stops start-up with one readable message. */
import { resolve } from 'node:path';
import { z } from 'zod';

const schema = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(4321),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** PEM (PKCS#8) Ed25519 private keys; generated into DATA_DIR/keys when unset. */
  ACCOUNT_JWT_PRIVATE_KEY: z.string().optional(),
  TENANT_JWT_PRIVATE_KEY: z.string().optional(),
  /** Access token lifetime in seconds. */
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(10).max(86_400).default(300),
  /** Refresh token lifetime in seconds. */
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .default(30 * 86_400),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `development` (astro dev) turns GraphQL introspection and field suggestions on; anything else is production. */
  NODE_ENV: z.string().default('production'),
  /** Overrides the NODE_ENV default: 1 turns introspection and field suggestions on, 0 off. */
  GRAPHQL_INTROSPECTION: z.enum(['0', '1']).optional(),
  /** Most series points (objects × quantities × buckets) one operation may ask tenantGraph for, summed over its fields. */
  GRAPH_MAX_POINTS: z.coerce.number().int().min(1).default(5_000),
  /** Largest request body the API reads, in bytes; a larger one is refused with 413 before it is parsed. */
  API_MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(100_000),
  /** 1: trust X-Forwarded-Proto from a reverse proxy (TLS ends there), for HSTS and the Secure cookie flag. */
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  /** Comma-separated origins allowed to call the API from another origin (CORS); empty means same origin only. */
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url().transform((u) => new URL(u).origin))),
});

export type ServerConfig = z.infer<typeof schema> & {
  dataDir: string;
  /** GraphQL introspection and "Did you mean" suggestions: on in development, off in production. */
  graphqlIntrospection: boolean;
};

/** Parses the environment; throws one error listing every bad variable. */
export function parseServerConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const { data } = result;
  const graphqlIntrospection = data.GRAPHQL_INTROSPECTION
    ? data.GRAPHQL_INTROSPECTION === '1'
    : data.NODE_ENV === 'development';
  return { ...data, dataDir: resolve(data.DATA_DIR), graphqlIntrospection };
}

/** Refresh tokens, the mail outbox and installation facts. */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { users } from './tenancies.ts';

/** Opaque refresh tokens, stored as SHA-256 hashes; rotated on use, reuse revokes the family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    /** Which backend issued it: account, tenant or admin (the operator console). */
    backend: text('backend', { enum: ['account', 'tenant', 'admin'] }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** A hard end for the whole family (impersonation: 60 minutes); rotation never goes past it. */
    sessionEndsAt: timestamp('session_ends_at', { withTimezone: true }),
  },
  (t) => [
    index('refresh_tokens_user_idx').on(t.userId),
    uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
);

/** Mail that is not sent through SMTP (SMTP_URL unset) lands here, and in the log. */
export const mailOutbox = pgTable('mail_outbox', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  /** The plain-text part. */
  body: text('body').notNull(),
  html: text('html'),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

/** Small key/value facts about the installation (demo seed version, last catch-up hour). */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});

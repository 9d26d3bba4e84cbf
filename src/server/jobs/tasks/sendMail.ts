/**
 * Hands one outbox mail to the transport; `sent_at` marks it delivered.
 *
 * The guarantee, as good as SMTP allows: SMTP has no two-phase commit, so a crash after the server's "250 OK"
 * and before this job's transaction commits sends the mail again on the retry. The window is kept to that one
 * step (the row is locked, SMTP is the job's last action, and only `sent_at` is written after it), and every
 * send of one outbox row carries the same Message-ID, so receivers that drop a repeated Message-ID (most
 * mailbox providers and clients) show it once. Nothing is ever lost: an unsent row stays pending until a send
 * succeeds. In the database everything is exactly once.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { parseServerConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import { enqueue } from '../queue.ts';
import { defineTask } from '../task.ts';

/** The Message-ID of an outbox row: the same on every send of that row, different for every row. */
export function outboxMessageId(row: { id: number; createdAt: Date }): string {
  return `<outbox.${row.id}.${row.createdAt.getTime()}@tenant-app.mail>`;
}

export const sendMailTask = defineTask({
  name: 'send-mail',
  payload: z.object({ outboxId: z.number().int().positive() }),
  key: (p) => ({ subject: `outbox:${p.outboxId}`, period: 'once' }),
  async run({ tx, now, logger, mail }, { outboxId }) {
    const [row] = await tx.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId)).for('update');
    if (!row || row.sentAt) return;
    await mail.send(
      { to: row.to, subject: row.subject, text: row.body, html: row.html, messageId: outboxMessageId(row) },
      logger,
    );
    if (mail.delivers) await tx.update(mailOutbox).set({ sentAt: now }).where(eq(mailOutbox.id, outboxId));
  },
});

/** Puts a mail in the outbox and queues its send-mail job, in the caller's transaction (a job's mail). */
export async function queueMail(
  tx: Db,
  to: string,
  mail: { subject: string; text: string },
  now: Date,
): Promise<void> {
  const [row] = await tx
    .insert(mailOutbox)
    .values({ to, subject: mail.subject, body: mail.text, createdAt: now })
    .returning({ id: mailOutbox.id });
  await enqueue(tx, sendMailTask, { outboxId: row!.id }, now);
}

/**
 * The app's origin for a job mail's links: APP_URL, else http://HOST:PORT as the configuration documents it (the
 * embedded worker runs in the server, so that is the server's own address). Without this fallback a mail sent
 * with APP_URL unset carried no report link at all (issue 22).
 */
export const appUrl = (): string | undefined => {
  try {
    return parseServerConfig().APP_URL;
  } catch {
    // A configuration the server refused cannot reach here; a bad APP_URL alone only costs the links.
    return undefined;
  }
};

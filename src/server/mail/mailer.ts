/**
 * Sends the account flows' mail on the app's one mail path: every mail is written to `mail_outbox` first,
 * then handed to the one transport (transport.ts): nodemailer to SMTP_URL when set, marking the row sent;
 * otherwise it stays in the outbox and goes to the log. When SMTP refuses, the row stays unsent and the
 * worker's send-mail job (the same one that delivers the worker's own mail) retries it with back-off.
 */
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';
import { enqueue } from '../jobs/queue.ts';
import { outboxMessageId, sendMailTask } from '../jobs/tasks/sendMail.ts';
import type { MailContent } from './messages.ts';
import { mailTransportFor } from './transport.ts';

export { transportFor } from './transport.ts';

/** What sending needs: the config (SMTP_URL, MAIL_FROM), the database (outbox) and a logger. */
export interface MailServices {
  config: Pick<ServerConfig, 'SMTP_URL' | 'MAIL_FROM'>;
  database: { db: Db };
  logger: Logger;
}

/** What became of one mail: its outbox row, whether it left the machine, and the transport's error if not. */
export interface SendResult {
  outboxId: number;
  delivered: boolean;
  error: string | null;
}

/** Sends one mail; resolves once the SMTP server accepted it, or it is in the outbox (and queued for a retry). */
export async function sendMail(
  services: MailServices,
  to: string,
  content: MailContent,
): Promise<SendResult> {
  const { config, logger } = services;
  const { db } = services.database;
  const [row] = await db
    .insert(mailOutbox)
    .values({ to, subject: content.subject, body: content.text, html: content.html })
    .returning({ id: mailOutbox.id, createdAt: mailOutbox.createdAt });
  const transport = mailTransportFor(config);
  try {
    await transport.send(
      {
        to,
        subject: content.subject,
        text: content.text,
        html: content.html,
        messageId: outboxMessageId(row!),
      },
      logger,
    );
  } catch (err) {
    logger.error({ err, to, subject: content.subject }, 'sending mail failed; the send-mail job retries it');
    await enqueue(db, sendMailTask, { outboxId: row!.id }, new Date());
    return { outboxId: row!.id, delivered: false, error: err instanceof Error ? err.message : String(err) };
  }
  if (transport.delivers)
    await db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row!.id));
  return { outboxId: row!.id, delivered: transport.delivers, error: null };
}

/** Sends without making the caller wait (so response time does not reveal whether a mail went out). */
export function sendMailInBackground(services: MailServices, to: string, content: MailContent): void {
  sendMail(services, to, content).catch((err: unknown) =>
    services.logger.error({ err, to, subject: content.subject }, 'sending mail failed'),
  );
}

/**
 * Sends the account flows' mail on the app's one mail path: every mail is written to `mail_outbox` first,
 * then handed to the one transport (transport.ts): nodemailer to SMTP_URL when set, marking the row sent;
 * otherwise it stays in the outbox and goes to the log. The row's send-mail job (the same one that delivers the
 * worker's own mail) is queued with it, so a mail SMTP refused, or a send cut short by a crash, is retried.
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

/**
 * How long after a mail is written its send-mail job may run: the direct send below normally marks the row sent
 * long before, and the job then finds it sent and does nothing. A send still under way after this long may be
 * repeated by the job, with the same Message-ID.
 */
export const RETRY_SEND_AFTER_MS = 2 * 60_000;

/**
 * Sends one mail; resolves once the SMTP server accepted it, or it is in the outbox with its retry queued.
 * The row and, when mail really leaves the machine, its send-mail job are committed together before the mail is
 * handed to SMTP, so a crash or a refusal during the send leaves the job to deliver it (issue 24: account mail
 * in flight was lost on a crash).
 */
export async function sendMail(
  services: MailServices,
  to: string,
  content: MailContent,
): Promise<SendResult> {
  const { config, logger } = services;
  const { db } = services.database;
  const transport = mailTransportFor(config);
  const row = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mailOutbox)
      .values({ to, subject: content.subject, body: content.text, html: content.html })
      .returning({ id: mailOutbox.id, createdAt: mailOutbox.createdAt });
    if (transport.delivers)
      await enqueue(tx, sendMailTask, { outboxId: row!.id }, new Date(Date.now() + RETRY_SEND_AFTER_MS));
    return row!;
  });
  try {
    await transport.send(
      {
        to,
        subject: content.subject,
        text: content.text,
        html: content.html,
        messageId: outboxMessageId(row),
      },
      logger,
    );
  } catch (err) {
    logger.error({ err, to, subject: content.subject }, 'sending mail failed; the send-mail job retries it');
    return { outboxId: row.id, delivered: false, error: err instanceof Error ? err.message : String(err) };
  }
  if (transport.delivers)
    await db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
  return { outboxId: row.id, delivered: transport.delivers, error: null };
}

/** Sends without making the caller wait (so response time does not reveal whether a mail went out). */
export function sendMailInBackground(services: MailServices, to: string, content: MailContent): void {
  sendMail(services, to, content).catch((err: unknown) =>
    services.logger.error({ err, to, subject: content.subject }, 'sending mail failed'),
  );
}

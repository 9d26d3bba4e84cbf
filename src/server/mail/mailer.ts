/**
 * Sends mail: through nodemailer to SMTP_URL when it is set; otherwise into the mail_outbox table and the
 * log, so nothing is lost on an installation without a mail server.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';
import type { MailContent } from './messages.ts';

/** What sending needs: the config (SMTP_URL, MAIL_FROM), the database (outbox) and a logger. */
export interface MailServices {
  config: Pick<ServerConfig, 'SMTP_URL' | 'MAIL_FROM'>;
  database: { db: Db };
  logger: Logger;
}

const transports = new Map<string, Transporter>();

/** One nodemailer transporter per SMTP URL, shared by the account flows and the job worker. */
export function transportFor(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(url, transport);
  }
  return transport;
}

/** Sends one mail; resolves once the SMTP server accepted it (or it is in the outbox). */
export async function sendMail(services: MailServices, to: string, content: MailContent): Promise<void> {
  const { config, logger } = services;
  if (config.SMTP_URL) {
    const info = await transportFor(config.SMTP_URL).sendMail({
      from: config.MAIL_FROM,
      to,
      subject: content.subject,
      text: content.text,
      html: content.html,
    });
    logger.info({ to, subject: content.subject, messageId: info.messageId }, 'mail sent');
    return;
  }
  await services.database.db
    .insert(mailOutbox)
    .values({ to, subject: content.subject, body: content.text, html: content.html });
  logger.info(
    { to, subject: content.subject, text: content.text },
    'mail stored in mail_outbox (SMTP_URL unset)',
  );
}

/** Sends without making the caller wait (so response time does not reveal whether a mail went out). */
export function sendMailInBackground(services: MailServices, to: string, content: MailContent): void {
  sendMail(services, to, content).catch((err: unknown) =>
    services.logger.error({ err, to, subject: content.subject }, 'sending mail failed'),
  );
}

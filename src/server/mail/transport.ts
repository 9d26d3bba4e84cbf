/**
 * The one way mail leaves the app (account flows and the job worker alike): nodemailer to SMTP_URL when it
 * is set; otherwise the mail stays in the `mail_outbox` table (every mail is written there first, see
 * mailer.ts and the worker's send-mail job) and goes to the log, so nothing is lost.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.ts';

/** One mail: always a plain-text part, and an HTML part when the message has one. */
interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** A Message-ID that stays the same when the same mail is sent again (receivers drop the repeat). */
  messageId?: string;
}

/** Where mail goes: SMTP, or nowhere but the log (the outbox row is the record). */
export interface MailTransport {
  /** True when mail really leaves the machine (the outbox row is then marked sent). */
  readonly delivers: boolean;
  send(mail: OutgoingMail, logger: Logger): Promise<void>;
}

const transporters = new Map<string, Transporter>();

/** One nodemailer transporter per SMTP URL, shared by the whole process. */
function transportFor(url: string): Transporter {
  let transporter = transporters.get(url);
  if (!transporter) {
    transporter = nodemailer.createTransport(url);
    transporters.set(url, transporter);
  }
  return transporter;
}

/** Sends through nodemailer to an SMTP URL. */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = transportFor(url);
  return {
    delivers: true,
    async send(mail, logger) {
      const info = await transporter.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        ...(mail.messageId ? { messageId: mail.messageId } : {}),
      });
      logger.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent');
    },
  };
}

/** Keeps mail in the outbox and writes it to the log. */
export const logTransport: MailTransport = {
  delivers: false,
  async send(mail, logger) {
    logger.info(
      { to: mail.to, subject: mail.subject, text: mail.text },
      'mail stored in mail_outbox (SMTP_URL unset)',
    );
  },
};

/** The transport the configuration asks for: SMTP when SMTP_URL is set, else the log. */
export function mailTransportFor(config: Pick<ServerConfig, 'SMTP_URL' | 'MAIL_FROM'>): MailTransport {
  return config.SMTP_URL ? smtpTransport(config.SMTP_URL, config.MAIL_FROM) : logTransport;
}

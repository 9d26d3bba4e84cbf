/**
 * The worker's mail transport, on src/server/mail's shared SMTP transporter and the server config. Mail is
 * always written to `mail_outbox` first, in the job's transaction; a separate send-mail job hands it to SMTP
 * when SMTP_URL is set, and otherwise it stays in the outbox and the log.
 */
import type { Logger } from 'pino';
import type { ServerConfig } from '../config.ts';
import { transportFor } from '../mail/mailer.ts';

/** One plain-text mail. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** A Message-ID that stays the same when the same mail is sent again (receivers drop the repeat). */
  messageId?: string;
}

/** Where mail goes: SMTP, or nowhere but the log (the outbox row is the record). */
export interface MailTransport {
  /** True when mail really leaves the machine. */
  readonly delivers: boolean;
  send(mail: OutgoingMail, logger: Logger): Promise<void>;
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
        ...(mail.messageId ? { messageId: mail.messageId } : {}),
      });
      logger.info({ to: mail.to, messageId: info.messageId }, 'mail sent');
    },
  };
}

/** Keeps mail in the outbox and writes it to the log. */
export const logTransport: MailTransport = {
  delivers: false,
  async send(mail, logger) {
    logger.info(
      { to: mail.to, subject: mail.subject, text: mail.text },
      'mail kept in the outbox (no SMTP_URL)',
    );
  },
};

/** The transport the configuration asks for: SMTP when SMTP_URL is set, else the log. */
export function mailTransportFor(config: Pick<ServerConfig, 'SMTP_URL' | 'MAIL_FROM'>): MailTransport {
  return config.SMTP_URL ? smtpTransport(config.SMTP_URL, config.MAIL_FROM) : logTransport;
}

/**
 * The worker's minimal mail sender, behind a small interface so the app's shared sender (src/server/mail)
 * can replace it. Mail is always written to `mail_outbox` first, in the job's transaction; a separate
 * send-mail job hands it to SMTP when SMTP_URL is set, and otherwise it stays in the outbox and the log.
 */
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { z } from 'zod';

/** One plain-text mail. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Where mail goes: SMTP, or nowhere but the log (the outbox row is the record). */
export interface MailTransport {
  /** True when mail really leaves the machine. */
  readonly delivers: boolean;
  send(mail: OutgoingMail, logger: Logger): Promise<void>;
}

const mailEnv = z.object({
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().default('Tenant App <no-reply@tenant-app.invalid>'),
});

/** Sends through nodemailer to an SMTP URL. */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    delivers: true,
    async send(mail, logger) {
      const info = await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
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

/** The transport the environment asks for: SMTP when SMTP_URL is set, else the log. */
export function mailTransportFromEnv(env: Record<string, string | undefined> = process.env): MailTransport {
  const parsed = mailEnv.parse(env);
  return parsed.SMTP_URL ? smtpTransport(parsed.SMTP_URL, parsed.MAIL_FROM) : logTransport;
}

/**
 * The worker's mail transport is the app's one transport (src/server/mail/transport.ts). The worker writes
 * mail to `mail_outbox` in the job's transaction and a send-mail job hands it to this transport; the account
 * flows write the same table and use the same transport (src/server/mail/mailer.ts).
 */
export {
  logTransport,
  type MailTransport,
  mailTransportFor,
  smtpTransport,
} from '../mail/transport.ts';

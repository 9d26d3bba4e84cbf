/**
 * The one mail path: account mail is written to mail_outbox and handed to the same transport as the worker's
 * mail; sent rows are marked, and a mail SMTP refused is delivered later by the worker's send-mail job.
 */
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { jobs, mailOutbox } from '../../src/server/db/schema.ts';
import { runNextJob } from '../../src/server/jobs/queue.ts';
import { ALL_TASKS } from '../../src/server/jobs/registry.ts';
import { sendMail } from '../../src/server/mail/mailer.ts';
import { renderMail } from '../../src/server/mail/messages.ts';
import { mailTransportFor } from '../../src/server/mail/transport.ts';
import { freshDatabase } from './helpers/db.ts';
import { startTestSmtp, type TestSmtp } from './helpers/smtp.ts';

const FROM = 'Tenant App <no-reply@tenant-app.test>';
const logger = pino({ level: 'silent' });
let database: Database;
let smtp: TestSmtp;

beforeAll(async () => {
  database = await freshDatabase();
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await database?.close();
});

const outboxFor = (to: string) => database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));

describe('one mail path', () => {
  it('writes every account mail to the outbox and marks it sent once SMTP took it', async () => {
    const content = renderMail('passwordChanged', 'da', { email: 'ane@demo.test' });
    await sendMail(
      { config: { SMTP_URL: smtp.url, MAIL_FROM: FROM }, database, logger },
      'ane@demo.test',
      content,
    );
    const mail = await smtp.waitFor((m) => m.to.includes('ane@demo.test'));
    expect(mail.subject).toBe(content.subject);
    expect(mail.text.trim()).toBe(content.text.trim());
    expect(mail.html).toContain('<html lang="da"');
    const [row] = await outboxFor('ane@demo.test');
    expect(row).toMatchObject({ subject: content.subject, body: content.text, html: content.html });
    expect(row!.sentAt).toBeInstanceOf(Date);
  });

  it('keeps the mail in the outbox, unsent, when SMTP_URL is unset', async () => {
    const content = renderMail('passwordChanged', 'nb', { email: 'ola@demo.test' });
    await sendMail(
      { config: { SMTP_URL: undefined, MAIL_FROM: FROM }, database, logger },
      'ola@demo.test',
      content,
    );
    const [row] = await outboxFor('ola@demo.test');
    expect(row!.body).toBe(content.text);
    expect(row!.sentAt).toBeNull();
    expect(await database.db.select().from(jobs)).toEqual([]);
  });

  it('queues a mail SMTP refused for the send-mail job, which delivers it through the same transport', async () => {
    const content = renderMail('passwordChanged', 'en', { email: 'kim@demo.test' });
    // Nothing listens on port 9: the connection is refused.
    const refused = { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: FROM };
    await sendMail({ config: refused, database, logger }, 'kim@demo.test', content);
    const [row] = await outboxFor('kim@demo.test');
    expect(row!.sentAt).toBeNull();
    const queued = await database.db.select().from(jobs);
    expect(queued.map((j) => [j.task, j.payload])).toEqual([['send-mail', { outboxId: row!.id }]]);

    const result = await runNextJob(database.db, {
      tasks: new Map(ALL_TASKS.map((t) => [t.name, t])),
      now: new Date(Date.now() + 1000),
      logger,
      mail: mailTransportFor({ SMTP_URL: smtp.url, MAIL_FROM: FROM }),
    });
    expect(result).toMatchObject({ ran: true, status: 'done' });
    const mail = await smtp.waitFor((m) => m.to.includes('kim@demo.test'));
    expect(mail.text).toContain(content.text.split('\n')[0]!);
    const [after] = await outboxFor('kim@demo.test');
    expect(after!.sentAt).toBeInstanceOf(Date);
  });
});

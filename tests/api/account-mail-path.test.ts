/**
 * The one mail path: account mail is written to mail_outbox and handed to the same transport as the worker's
 * mail; sent rows are marked, and a mail SMTP refused, or cut short by a crash, is delivered later by the
 * worker's send-mail job, queued with the row before the send.
 */
import { createServer, type Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { jobs, mailOutbox } from '../../src/server/db/schema.ts';
import { runNextJob } from '../../src/server/jobs/queue.ts';
import { ALL_TASKS } from '../../src/server/jobs/registry.ts';
import { RETRY_SEND_AFTER_MS, sendMail } from '../../src/server/mail/mailer.ts';
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
/** The send-mail jobs of an outbox row. */
const jobsFor = (outboxId: number) =>
  database.db
    .select()
    .from(jobs)
    .where(eq(jobs.key, `send-mail:outbox:${outboxId}:once`));
/** Runs every job due at `now` with the test SMTP server as the transport; the keys of those that ran. */
async function runDueJobs(now: Date): Promise<string[]> {
  const ran: string[] = [];
  for (;;) {
    const result = await runNextJob(database.db, {
      tasks: new Map(ALL_TASKS.map((t) => [t.name, t])),
      now,
      logger,
      mail: mailTransportFor({ SMTP_URL: smtp.url, MAIL_FROM: FROM }),
    });
    if (!result.ran) return ran;
    expect(result.status).toBe('done');
    ran.push(result.key);
  }
}
const afterRetryDelay = () => new Date(Date.now() + RETRY_SEND_AFTER_MS + 1000);

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
    expect(await jobsFor(row!.id)).toEqual([]);
  });

  it('queues a mail SMTP refused for the send-mail job, which delivers it through the same transport', async () => {
    const content = renderMail('passwordChanged', 'en', { email: 'kim@demo.test' });
    // Nothing listens on port 9: the connection is refused.
    const refused = { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: FROM };
    await sendMail({ config: refused, database, logger }, 'kim@demo.test', content);
    const [row] = await outboxFor('kim@demo.test');
    expect(row!.sentAt).toBeNull();
    const queued = await jobsFor(row!.id);
    expect(queued.map((j) => [j.task, j.payload, j.status])).toEqual([
      ['send-mail', { outboxId: row!.id }, 'pending'],
    ]);

    expect(await runDueJobs(afterRetryDelay())).toContain(queued[0]!.key);
    const mail = await smtp.waitFor((m) => m.to.includes('kim@demo.test'));
    expect(mail.text).toContain(content.text.split('\n')[0]!);
    const [after] = await outboxFor('kim@demo.test');
    expect(after!.sentAt).toBeInstanceOf(Date);
  });

  it('a mail whose send is cut short (a crash while SMTP has it) is delivered by its job, queued before the send', async () => {
    // An SMTP server that accepts the connection and never answers: the send is in flight, as at a crash.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const content = renderMail('reset', 'da', {
      email: 'sif@demo.test',
      link: 'https://x.test/r',
      minutes: 60,
    });
    const inFlight = sendMail(
      { config: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: FROM }, database, logger },
      'sif@demo.test',
      content,
    );
    // Wait until the mail is at the SMTP server: the row and its job are committed by then.
    for (let i = 0; i < 200 && sockets.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(sockets).toHaveLength(1);
    const [row] = await outboxFor('sif@demo.test');
    expect(row!.sentAt).toBeNull();
    expect((await jobsFor(row!.id)).map((j) => j.status)).toEqual(['pending']);
    // The process "dies" here; another process's worker runs the job once it is due (not before).
    expect(await runDueJobs(new Date())).toEqual([]);
    expect(await runDueJobs(afterRetryDelay())).toEqual([`send-mail:outbox:${row!.id}:once`]);
    const mail = await smtp.waitFor((m) => m.to.includes('sif@demo.test'));
    expect(mail.subject).toBe(content.subject);
    expect((await outboxFor('sif@demo.test'))[0]!.sentAt).toBeInstanceOf(Date);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    await inFlight;
  });

  it('a mail sent at once is not sent again by its job', async () => {
    const content = renderMail('passwordChanged', 'nb', { email: 'ida@demo.test' });
    await sendMail(
      { config: { SMTP_URL: smtp.url, MAIL_FROM: FROM }, database, logger },
      'ida@demo.test',
      content,
    );
    await smtp.waitFor((m) => m.to.includes('ida@demo.test'));
    const [row] = await outboxFor('ida@demo.test');
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect((await jobsFor(row!.id)).map((j) => j.status)).toEqual(['pending']);
    expect(await runDueJobs(afterRetryDelay())).toEqual([`send-mail:outbox:${row!.id}:once`]);
    expect(smtp.mails.filter((m) => m.to.includes('ida@demo.test'))).toHaveLength(1);
  });
});

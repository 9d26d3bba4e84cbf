/** Hands one outbox mail to the transport; `sent_at` marks it delivered. SMTP is at-least-once across a crash. */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { mailOutbox } from '../../db/schema.ts';
import { defineTask } from '../task.ts';

export const sendMailTask = defineTask({
  name: 'send-mail',
  payload: z.object({ outboxId: z.number().int().positive() }),
  key: (p) => ({ subject: `outbox:${p.outboxId}`, period: 'once' }),
  async run({ tx, now, logger, mail }, { outboxId }) {
    const [row] = await tx.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId)).for('update');
    if (!row || row.sentAt) return;
    await mail.send({ to: row.to, subject: row.subject, text: row.body }, logger);
    if (mail.delivers) await tx.update(mailOutbox).set({ sentAt: now }).where(eq(mailOutbox.id, outboxId));
  },
});

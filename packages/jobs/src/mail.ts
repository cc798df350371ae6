import { Type, type Static } from '@sinclair/typebox';
import { createMailer, type MailMessage, type Queryable } from '@portal/core';
import { defineJob, JobError } from './define';
import { enqueue, type Enqueued } from './enqueue';

/**
 * Mail through an outbox (issue 28.1: no network call inside a transaction).
 * `enqueueMail(tx, ...)` adds a `mail.send` job in the caller's transaction,
 * so the mail goes out if and only if the write that causes it commits; the
 * worker sends it outside any transaction, retried with backoff.
 *
 * Delivery is at least once: a worker that dies between the SMTP server's
 * answer and the job's completion sends it again. The rendered message is
 * stored with the job (pg-boss keeps finished jobs for days): never queue a
 * secret (a one-time code, a temporary password) this way.
 */
export const MAIL_QUEUE = 'mail.send';

export const MailJobData = Type.Object({
  message: Type.Object({
    to: Type.String({ minLength: 1, maxLength: 1000 }),
    subject: Type.String({ maxLength: 1000 }),
    text: Type.String(),
    html: Type.Optional(Type.String()),
  }),
  /** What the mail is for, for the logs (e.g. `deadline-digest`); never an address. */
  reason: Type.String({ minLength: 1, maxLength: 200 }),
});
export type MailJobData = Static<typeof MailJobData>;

export const mailSendJob = defineJob({
  name: MAIL_QUEUE,
  schema: MailJobData,
  // Doubling delays (with jitter) give 1-2 hours of retries: only an SMTP outage that long loses the mail.
  retryLimit: 8,
  retryDelaySeconds: 30,
  retryBackoff: true,
  // Above nodemailer's connection and greeting timeouts; an attempt that hangs longer is retried.
  expireInSeconds: 300,
  handler: async (ctx) => {
    if (!ctx.env) throw new JobError('The worker has no mail configuration.');
    // The mailer logs the recipient and subject as any direct send does; the body never.
    ctx.log.info({ reason: ctx.data.reason }, 'sending queued mail');
    const sent = await createMailer(ctx.env, ctx.log).send(ctx.data.message);
    return { transport: sent.transport };
  },
});

/** Queues one mail in the caller's transaction; `reason` names it in the logs. */
export function enqueueMail(
  tx: Queryable,
  tenant: string,
  message: MailMessage,
  reason: string,
): Promise<Enqueued> {
  // Only the message's own fields are stored with the job. No creator: it is the system's mail.
  const { to, subject, text, html } = message;
  const data = { message: { to, subject, text, ...(html === undefined ? {} : { html }) }, reason };
  return enqueue(tx, mailSendJob, data, { tenant, createdBy: null });
}

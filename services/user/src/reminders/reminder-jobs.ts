import type { FastifyInstance } from 'fastify';
import { defineJob, enqueue, Type, type JobDefinition } from '@portal/jobs';
import { sweepReminders } from './reminder-sweep';

/**
 * Deadline reminders (design §9): one job per tenant and hour. Each user gets
 * at most one digest per local day, at SEND_HOUR in their time zone, so an
 * hourly run covers every time zone; the tables make a repeated run send
 * nothing twice.
 */
const deadlineRemindersJob = defineJob({
  name: 'user.deadline-reminders',
  schema: Type.Object({}),
  retryLimit: 5,
  retryDelaySeconds: 60,
  expireInSeconds: 1800,
  handler: async (ctx) => {
    // The digests' mails are mail.send jobs committed with their records: this job never talks SMTP.
    const result = await sweepReminders(ctx.db, ctx.tenant, new Date());
    await ctx.progress(100, `${result.users} reminder e-mails sent (${result.cases} cases).`);
    return result;
  },
});

export const REMINDER_JOBS: readonly JobDefinition[] = [deadlineRemindersJob];

const HOUR = 60 * 60 * 1000;

/** Enqueues a run per tenant; every replica may call it (one unfinished run per tenant at a time). */
export async function enqueueReminderRuns(app: FastifyInstance): Promise<void> {
  const { db } = app.deps;
  const { rows } = await db.query<{ tenant: string }>(`select distinct tenant from users.users`);
  for (const { tenant } of rows)
    await db.transaction((tx) =>
      enqueue(tx, deadlineRemindersJob, {}, { tenant, createdBy: null, singletonKey: 'reminders' }),
    );
}

/** Hourly, a minute after start and then on the hour's timer; failures are logged and retried next hour. */
export function scheduleReminders(app: FastifyInstance): void {
  const run = () =>
    enqueueReminderRuns(app).catch((error: unknown) =>
      app.log.warn({ err: error }, 'deadline reminder runs not enqueued'),
    );
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, HOUR);
  first.unref();
  timer.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(timer);
  });
}

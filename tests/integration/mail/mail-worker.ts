import { expect } from 'vitest';
import { createLogger, type Db, type Env, type Queryable } from '@portal/core';
import { JobWorker, MAIL_QUEUE, mailSendJob } from '@portal/jobs';

/**
 * A worker of the mail.send queue alone, for tests that queue mail without
 * the whole stack (the digest sweep, enqueueMail); `env` holds the mail
 * settings (SMTP_URL, or DATA_DIR of the outbox).
 */
export async function startMailWorker(db: Db, env: Env): Promise<JobWorker> {
  const worker = new JobWorker({
    db,
    jobs: [mailSendJob],
    env,
    // Failed attempts log at warn: keep test output to errors.
    log: createLogger({ LOG_LEVEL: 'error', NODE_ENV: 'test' }, 'mail-worker'),
    pollingIntervalSeconds: 0.5,
    maintenanceIntervalSeconds: 1,
  });
  await worker.start();
  return worker;
}

/** Waits until every queued mail was sent (each mail.send job done). */
export async function mailsSent(db: Queryable): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await db.query<{ state: string; n: number }>(
            `select state, count(*)::int as n from jobs.job_status where kind = $1 and state <> 'done' group by state`,
            [MAIL_QUEUE],
          )
        ).rows,
      { timeout: 20_000, interval: 100 },
    )
    .toEqual([]);
}

import PgBoss from 'pg-boss';
import type { Queryable } from '@portal/core';
import type { JobDefinition } from './define';

/** pg-boss keeps its queue tables in its own schema, next to the services' schemas. */
export const PGBOSS_SCHEMA = 'pgboss';

/**
 * pg-boss runs its SQL through `executeSql` on whatever we give it: the
 * process's Db (pg pool or PGlite) for the worker, or the caller's
 * transaction for enqueue. Scripts without parameters (its install and
 * maintenance scripts, which carry their own BEGIN/COMMIT) go through pg's
 * simple protocol on Postgres and PGlite's exec() (see core db.ts).
 */
export function adapterFor(target: Queryable): PgBoss.Db {
  return {
    executeSql: async (text: string, values?: unknown[]) => target.query(text, values ?? []),
  };
}

/** The constructor options every pg-boss instance here shares. */
export function bossOptions(db: PgBoss.Db, extra: PgBoss.ConstructorOptions = {}): PgBoss.ConstructorOptions {
  return {
    db,
    schema: PGBOSS_SCHEMA,
    // No cron schedules yet (reminders may turn it on); it would also create an internal queue.
    schedule: false,
    ...extra,
  };
}

/** pg-boss queue options of a job kind (also sent with each job, so a changed definition applies at once). */
export function queueOptions(job: JobDefinition): PgBoss.Queue & PgBoss.RetryOptions {
  return {
    name: job.name,
    policy: 'standard',
    retryLimit: job.retryLimit,
    retryDelay: job.retryDelaySeconds,
    retryBackoff: job.retryBackoff,
    expireInSeconds: job.expireInSeconds,
  };
}

const noDatabase: PgBoss.Db = {
  executeSql: () => Promise.reject(new Error('pg-boss sender: pass the transaction as the db option')),
};
let sender: PgBoss | undefined;
/** A never-started pg-boss used only for send() with the caller's transaction as its db. */
export function senderBoss(): PgBoss {
  sender ??= new PgBoss(bossOptions(noDatabase, { supervise: false, migrate: false }));
  return sender;
}

/** Creates the queue of each job kind (idempotent) and brings its options up to date. */
export async function ensureQueues(boss: PgBoss, jobs: readonly JobDefinition[]) {
  for (const job of jobs) {
    const options = queueOptions(job);
    await boss.createQueue(job.name, options);
    await boss.updateQueue(job.name, options);
  }
}

import PgBoss from 'pg-boss';
import { migrate, type Db, type Logger, type ServiceMigrations } from '@portal/core';
import jobStatus from '../migrations/001_job_status.sql';
import workerHeartbeat from '../migrations/002_worker_heartbeat.sql';
import lostFetch from '../migrations/003_lost_fetch.sql';
import { adapterFor, bossOptions, ensureQueues } from './boss';
import type { JobDefinition } from './define';

/** The status records screens read (schema `jobs`); pg-boss's own tables live in schema `pgboss`. */
export const jobMigrations: ServiceMigrations = {
  schema: 'jobs',
  migrations: [
    { version: 1, name: 'job_status', sql: jobStatus },
    { version: 2, name: 'worker_heartbeat', sql: workerHeartbeat },
    { version: 3, name: 'lost_fetch', sql: lostFetch },
  ],
};

/**
 * The migrate step of the job engine: the status tables, pg-boss's schema
 * (installed or upgraded by pg-boss itself, under its advisory lock) and one
 * queue per job kind, so that services can enqueue before any worker ran.
 */
export async function migrateJobs(db: Db, jobs: readonly JobDefinition[], log?: Logger): Promise<void> {
  await migrate(db, jobMigrations, log);
  const boss = new PgBoss(bossOptions(adapterFor(db), { migrate: true, supervise: false }));
  boss.on('error', (err) => log?.error({ err }, 'job engine error'));
  await boss.start();
  try {
    await ensureQueues(boss, jobs);
  } finally {
    await boss.stop({ graceful: false, close: false });
  }
  log?.debug({ jobs: jobs.map((j) => j.name) }, 'job queues installed');
}

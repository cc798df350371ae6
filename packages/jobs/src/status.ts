import { Type, type Static } from '@sinclair/typebox';
import type { Queryable } from '@portal/core';
import { PGBOSS_SCHEMA } from './boss';
import { LIVE_JOB_COLUMNS, type JobStatusChange } from './live';

/**
 * The state of a job as screens show it. pg-boss states map as:
 * created -> queued; retry -> queued (with `error` of the failed attempt);
 * active -> running; completed -> done; failed and cancelled -> failed.
 */
export const JobState = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('done'),
  Type.Literal('failed'),
]);
export type JobState = Static<typeof JobState>;

/** A job's status record (route schemas of the features that own a job kind can reuse it). */
export const JobStatus = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Type.String(),
  tenant: Type.String(),
  created_by: Type.Union([Type.Integer(), Type.Null()]),
  state: JobState,
  /** 0-100. */
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  /** What the job is doing, for a person. */
  message: Type.Union([Type.String(), Type.Null()]),
  /** The last attempt's error, for a person (kept while a retry is queued; cleared when done). */
  error: Type.Union([Type.String(), Type.Null()]),
  result: Type.Unknown(),
  attempts: Type.Integer({ minimum: 0 }),
  max_attempts: Type.Integer({ minimum: 1 }),
  created_at: Type.String(),
  started_at: Type.Union([Type.String(), Type.Null()]),
  finished_at: Type.Union([Type.String(), Type.Null()]),
  updated_at: Type.String(),
});
export type JobStatus = Static<typeof JobStatus>;

const COLUMNS = `id, kind, tenant, created_by, state, progress, message, error, result, attempts, max_attempts,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
  to_char(started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as started_at,
  to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as finished_at,
  to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One job of the tenant, or null (also for an id that is not a UUID). */
export async function getJobStatus(db: Queryable, tenant: string, id: string): Promise<JobStatus | null> {
  if (!UUID.test(id)) return null;
  const { rows } = await db.query<JobStatus>(
    `select ${COLUMNS} from jobs.job_status where tenant = $1 and id = $2`,
    [tenant, id],
  );
  return rows[0] ?? null;
}

export interface JobStatusFilter {
  kind?: string | readonly string[];
  createdBy?: number;
  state?: JobState | readonly JobState[];
  /** Newest first; default 25, at most 1000. */
  limit?: number;
  start?: number;
}

/** The tenant's jobs, newest first. */
export async function listJobStatuses(
  db: Queryable,
  tenant: string,
  filter: JobStatusFilter = {},
): Promise<JobStatus[]> {
  const where = ['tenant = $1'];
  const params: unknown[] = [tenant];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.kind !== undefined) add((p) => `kind = any(${p}::text[])`, [filter.kind].flat());
  if (filter.state !== undefined) add((p) => `state = any(${p}::text[])`, [filter.state].flat());
  if (filter.createdBy !== undefined) add((p) => `created_by = ${p}`, filter.createdBy);
  const limit = Math.min(Math.max(filter.limit ?? 25, 0), 1000);
  const start = Math.max(filter.start ?? 0, 0);
  const { rows } = await db.query<JobStatus>(
    `select ${COLUMNS} from jobs.job_status where ${where.join(' and ')}
     order by created_at desc, id limit ${limit} offset ${start}`,
    params,
  );
  return rows;
}

// ---- writes of the worker (enqueue writes the first row itself) ----

export async function readForRun(db: Queryable, id: string) {
  const { rows } = await db.query<{ state: JobState; result: unknown }>(
    `select state, result from jobs.job_status where id = $1`,
    [id],
  );
  return rows[0];
}

export async function markRunning(
  db: Queryable,
  job: { id: string; kind: string; tenant: string; createdBy: number | null },
  attempt: number,
  maxAttempts: number,
  workerId: string,
): Promise<JobStatusChange | undefined> {
  // The upsert also covers a job sent to pg-boss without enqueue() (no status row yet).
  // worker_id: whose heartbeat vouches for this attempt (liveness.ts).
  // No row comes back when the attempt was already counted: the sweep took its fetch for lost.
  const { rows } = await db.query<JobStatusChange>(
    `insert into jobs.job_status (id, kind, tenant, created_by, state, attempts, max_attempts, started_at, worker_id)
     values ($1, $2, $3, $4, 'running', $5, $6, now(), $7)
     on conflict (id) do update set state = 'running', attempts = $5, max_attempts = $6,
       started_at = coalesce(jobs.job_status.started_at, now()), worker_id = $7, updated_at = now()
       where jobs.job_status.attempts < $5
     returning ${LIVE_JOB_COLUMNS}`,
    [job.id, job.kind, job.tenant, job.createdBy, attempt, maxAttempts, workerId],
  );
  return rows[0];
}

export async function setProgress(
  db: Queryable,
  id: string,
  attempt: number,
  percent: number,
  message?: string,
): Promise<JobStatusChange | undefined> {
  const pct = Math.round(Math.min(100, Math.max(0, Number.isFinite(percent) ? percent : 0)));
  const { rows } = await db.query<JobStatusChange>(
    `update jobs.job_status set progress = $3, message = coalesce($4, message), updated_at = now()
     where id = $1 and attempts = $2 and state = 'running' returning ${LIVE_JOB_COLUMNS}`,
    [id, attempt, pct, message ?? null],
  );
  return rows[0];
}

/** Ends an attempt; only the attempt that is running may (a timed-out earlier attempt finishing late is ignored unless nothing else ran). */
export async function markFinished(
  db: Queryable,
  id: string,
  attempt: number,
  outcome:
    | { state: 'done'; result: unknown }
    | { state: 'failed'; error: string }
    | { state: 'queued'; error: string },
): Promise<JobStatusChange | undefined> {
  if (outcome.state === 'done') {
    const { rows } = await db.query<JobStatusChange>(
      `update jobs.job_status set state = 'done', progress = 100, result = $3::jsonb, error = null,
         finished_at = now(), updated_at = now()
       where id = $1 and attempts = $2 and state in ('running', 'queued') returning ${LIVE_JOB_COLUMNS}`,
      [id, attempt, JSON.stringify(outcome.result ?? null)],
    );
    return rows[0];
  }
  const { rows } = await db.query<JobStatusChange>(
    `update jobs.job_status set state = $3, error = $4,
       message = case when $3 = 'queued' then 'Waiting to retry' else message end,
       finished_at = case when $3 = 'failed' then now() end, updated_at = now()
     where id = $1 and attempts = $2 and state = 'running' returning ${LIVE_JOB_COLUMNS}`,
    [id, attempt, outcome.state, outcome.error],
  );
  return rows[0];
}

/**
 * Brings status records up to date with what pg-boss decided without a
 * handler running: an attempt that expired (its worker crashed or it ran
 * past expireInSeconds) goes back to `queued` or ends `failed`; a cancelled
 * job ends `failed`. Run by every worker on its maintenance interval. (A
 * crashed worker's jobs are usually handed back sooner: liveness.ts.)
 */
export async function reconcile(db: Queryable, onChange?: (row: JobStatusChange) => void): Promise<number> {
  const { rowCount, rows } = await db.query<JobStatusChange>(
    `update jobs.job_status s set
       state = case when j.state = 'retry' then 'queued' else 'failed' end,
       error = case
         when j.state = 'cancelled' then 'The job was cancelled.'
         when j.output->'value'->>'message' like 'job failed by timeout%'
           then 'The job did not finish in time or its worker stopped.'
         when j.output->>'value' like 'pg-boss shut down%' then 'The worker was stopped while the job was running.'
         else coalesce(s.error, 'The job stopped unexpectedly.') end,
       message = case when j.state = 'retry' then 'Waiting to retry' else s.message end,
       finished_at = case when j.state = 'retry' then null else now() end,
       updated_at = now()
     from ${PGBOSS_SCHEMA}.job j
     where j.id = s.id and j.name = s.kind and s.state = 'running'
       and j.state in ('retry', 'failed', 'cancelled')
     returning s.id, s.kind, s.tenant, s.created_by, s.state, s.progress, s.message`,
  );
  if (onChange) for (const row of rows) onChange(row);
  return rowCount;
}

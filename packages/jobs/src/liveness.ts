import { hostname } from 'node:os';
import type { Logger, Queryable } from '@portal/core';
import { PGBOSS_SCHEMA } from './boss';
import type { JobStatusChange } from './live';

/**
 * Worker liveness (issue 31 §4). pg-boss alone retries a crashed worker's job
 * only when its time limit (expireInSeconds, 15 min by default) runs out.
 * Instead each JobWorker beats in `jobs.job_workers`, and every worker hands
 * back the `running` jobs of workers whose beat is stale or gone.
 *
 * Why a heartbeat row rather than a Postgres session (advisory lock, backend
 * pid): the Db handle is a pool or PGlite's one connection, neither gives a
 * worker a session of its own, and beats work the same on both. Times are the
 * database's clock, so hosts' clocks never matter.
 */

/** Shown on the job's screen; also pg-boss's output of the attempt. */
export const DEAD_WORKER_ERROR = 'The worker running the job stopped unexpectedly.';

export async function registerWorker(db: Queryable, id: string): Promise<void> {
  await db.query(
    `insert into jobs.job_workers (id, host, pid) values ($1, $2, $3)
     on conflict (id) do update set beat_at = now()`,
    [id, hostname(), process.pid],
  );
}

/** Refreshes the beat; false when the row is gone: another worker took this one for dead (and its jobs). */
export async function beat(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`update jobs.job_workers set beat_at = now() where id = $1`, [id]);
  return rowCount > 0;
}

export async function unregisterWorker(db: Queryable, id: string): Promise<void> {
  await db.query(`delete from jobs.job_workers where id = $1`, [id]);
}

/**
 * The status of an attempt handed back to pg-boss (`j`, its job row), set as pg-boss's fail will: queued
 * for a retry, or failed when no retry is left. `error` names the parameter holding the reason.
 */
const handedBack = (error: string) => `
       state = case when j.retry_count < j.retry_limit then 'queued' else 'failed' end,
       error = ${error},
       message = case when j.retry_count < j.retry_limit then 'Waiting to retry' else s.message end,
       finished_at = case when j.retry_count < j.retry_limit then null else now() end,
       updated_at = now()`;

/**
 * Claims, in one statement, the running jobs of workers other than `self`
 * whose beat is older than `deadAfterSeconds` (their rows are deleted) or
 * gone: their status becomes `queued`, or `failed` when pg-boss has no retry
 * left (the same test pg-boss's fail applies). The caller then fails them in
 * pg-boss. Only the attempt the dead worker runs is claimed (pg-boss job
 * still `active` with that attempt's retry_count), so a job another worker
 * has started since is never taken. One statement keeps concurrent sweepers
 * apart (the status row's lock; the second sees it no longer running) and a
 * stalled worker coming back apart too: its heartbeat row is deleted with
 * the claim, so its next beat finds it gone and it aborts its attempts.
 */
export async function claimOrphanedJobs(
  db: Queryable,
  self: string,
  deadAfterSeconds: number,
): Promise<JobStatusChange[]> {
  const { rows } = await db.query<JobStatusChange>(
    `with dead as (
       delete from jobs.job_workers
       where id <> $1 and beat_at < now() - make_interval(secs => $2)
       returning id
     )
     update jobs.job_status s set ${handedBack('$3')}
     from ${PGBOSS_SCHEMA}.job j
     where s.state = 'running' and s.worker_id <> $1
       and (s.worker_id in (select id from dead)
            or not exists (select 1 from jobs.job_workers w where w.id = s.worker_id))
       and j.id = s.id and j.name = s.kind and j.state = 'active' and j.retry_count = s.attempts - 1
     returning s.id, s.kind, s.tenant, s.created_by, s.state, s.progress, s.message`,
    [self, deadAfterSeconds, DEAD_WORKER_ERROR],
  );
  return rows;
}

/** Shown while a job whose fetch was lost waits for its retry. */
export const LOST_FETCH_ERROR = 'The job was taken from the queue but never reached a worker.';

/**
 * pg-boss's fetch marks a job `active` in one statement; when its answer never reaches the worker
 * (Postgres stopped or the connection dropped as it committed), no one runs the attempt and only the
 * job's time limit (5 to 15 minutes) would retry it. Claims, in one statement, the attempts that no
 * worker marked running within `afterSeconds` of their fetch: the status row records the attempt as
 * spent (`attempts`), so a worker that receives it late refuses it (markRunning), and the caller
 * fails them in pg-boss, which retries them after their retry delay.
 */
export async function claimLostFetches(db: Queryable, afterSeconds: number): Promise<JobStatusChange[]> {
  const { rows } = await db.query<JobStatusChange>(
    `update jobs.job_status s set attempts = j.retry_count + 1, ${handedBack('$2')}
     from ${PGBOSS_SCHEMA}.job j
     where s.state = 'queued' and j.id = s.id and j.name = s.kind and j.state = 'active'
       and j.started_on < now() - make_interval(secs => $1) and s.attempts <= j.retry_count
     returning s.id, s.kind, s.tenant, s.created_by, s.state, s.progress, s.message`,
    [afterSeconds, LOST_FETCH_ERROR],
  );
  return rows;
}

/** A finished job whose outcome pg-boss never recorded. */
export interface LostOutcome {
  id: string;
  kind: string;
  state: 'done' | 'failed';
  result: unknown;
  error: string | null;
}

/**
 * The other half of a lost exchange: the attempt ran and its status record says how it ended, but pg-boss
 * never recorded the outcome (the worker died between the two writes, or Postgres went away before
 * pg-boss's unawaited complete). The job stays `active` until its time limit. Finds those finished more
 * than `afterSeconds` ago; the caller completes them in pg-boss. Reads pg-boss's active jobs (no index
 * of ours covers them), so it runs at the maintenance interval, as pg-boss's own expiry does.
 */
export async function findLostOutcomes(db: Queryable, afterSeconds: number): Promise<LostOutcome[]> {
  const { rows } = await db.query<LostOutcome>(
    `select s.id, s.kind, s.state, s.result, s.error
     from ${PGBOSS_SCHEMA}.job j join jobs.job_status s on s.id = j.id and s.kind = j.name
     where j.state = 'active' and s.state in ('done', 'failed') and s.attempts = j.retry_count + 1
       and s.finished_at < now() - make_interval(secs => $1)`,
    [afterSeconds],
  );
  return rows;
}

export interface HeartbeatOptions {
  db: Queryable;
  /** The worker's id. */
  id: string;
  intervalSeconds: number;
  deadAfterSeconds: number;
  log: Logger;
  /** Our row was gone: we were taken for dead and our running jobs handed back. */
  onLost(): void;
  /** The sweep, run after a beat. */
  afterBeat(): Promise<void>;
}

/**
 * Beats every `intervalSeconds`, one beat at a time (a slow database never
 * stacks them up). After a failed beat (database down) it sweeps again only
 * once beats have worked for `deadAfterSeconds`: every worker's beat is stale
 * after an outage, and the first worker back must give the others time to
 * beat before it judges them.
 */
export class Heartbeat {
  #timer: NodeJS.Timeout | undefined;
  #tick: Promise<void> = Promise.resolve();
  #running = false;
  #lastFailure = -Infinity;

  constructor(private readonly options: HeartbeatOptions) {}

  async start(): Promise<void> {
    await registerWorker(this.options.db, this.options.id);
    this.#running = true;
    this.#schedule();
  }

  /** Stops beating and removes the row (a clean stop: no one may take this worker for dead). */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    await this.#tick;
    await unregisterWorker(this.options.db, this.options.id);
  }

  #schedule() {
    this.#timer = setTimeout(() => {
      this.#tick = this.#beat().finally(() => {
        if (this.#running) this.#schedule();
      });
    }, this.options.intervalSeconds * 1000);
    this.#timer.unref();
  }

  async #beat() {
    const { db, id, log, deadAfterSeconds } = this.options;
    try {
      if (!(await beat(db, id))) {
        await registerWorker(db, id);
        this.options.onLost();
      }
    } catch (err) {
      this.#lastFailure = Date.now();
      log.error({ err }, 'job worker heartbeat failed');
      return;
    }
    if (Date.now() - this.#lastFailure < deadAfterSeconds * 1000) return;
    await this.options.afterBeat().catch((err: unknown) => log.error({ err }, 'job worker sweep failed'));
  }
}

import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { Value } from '@sinclair/typebox/value';
import type { Db, Env, Logger } from '@portal/core';
import { bossOptions, ensureQueues } from './boss';
import { EngineDb, keepEngineRejections } from './engine-db';
import { JobError, readableError, type JobContext, type JobDefinition } from './define';
import type { JobEnvelope } from './enqueue';
import { EVENT_DISPATCH_QUEUE } from './events';
import {
  claimLostFetches,
  claimOrphanedJobs,
  DEAD_WORKER_ERROR,
  findLostOutcomes,
  Heartbeat,
  LOST_FETCH_ERROR,
} from './liveness';
import { publishJobChange, type JobStatusChange, type LivePublisher } from './live';
import { markFinished, markRunning, readForRun, reconcile, setProgress } from './status';
import { once } from './steps';

export interface JobWorkerOptions {
  db: Db;
  jobs: readonly JobDefinition[];
  log: Logger;
  /** The process's parsed env, handed to handlers that open outside stores (object store, mail). */
  env?: Env;
  /** How often an idle queue is polled (default 2 s; at least 0.5). */
  pollingIntervalSeconds?: number;
  /** How often expired attempts are failed by pg-boss and status records reconciled (default 30 s). */
  maintenanceIntervalSeconds?: number;
  /** How often the worker beats and looks for dead workers' jobs (default 2 s). */
  heartbeatSeconds?: number;
  /**
   * A worker whose beat is older than this is dead: its running jobs are retried (default 10 s; at
   * least twice heartbeatSeconds, so that a late beat or two never costs a live worker its jobs).
   */
  deadAfterSeconds?: number;
  /**
   * A job fetched this long ago that no worker started is taken for a lost fetch and retried, and one
   * finished this long ago whose outcome pg-boss never recorded is completed (default 30 s; liveness.ts).
   */
  lostFetchSeconds?: number;
  /** Where job state changes (and the event dispatcher's committed events) are published for live screens. */
  live?: LivePublisher;
}

export type WorkerState = 'idle' | 'starting' | 'started' | 'stopping' | 'stopped';

/**
 * Runs the handlers of the given job kinds, one job at a time per kind, on
 * the process's database (pg pool or PGlite). Any number of workers may run
 * against one database: pg-boss hands each job to one of them
 * (`FOR UPDATE SKIP LOCKED`). pg-boss's schema must be installed first
 * (migrateJobs, in the migrate step). A worker that dies mid-job (SIGKILL,
 * OOM) stops beating: within deadAfterSeconds another worker, or its own
 * restart, hands its jobs back for retry (liveness.ts).
 */
export class JobWorker {
  /** This worker's id in jobs.job_workers and on the status rows of the attempts it runs. */
  readonly id = randomUUID();
  #state: WorkerState = 'idle';
  #boss: PgBoss | undefined;
  #timer: NodeJS.Timeout | undefined;
  #heartbeat: Heartbeat | undefined;
  #engineDb: EngineDb | undefined;
  /** Attempts begun (#run entered) and not yet returned. */
  #attempts = 0;
  /** The running attempts, to abort when this worker learns it was taken for dead. */
  readonly #running = new Map<string, AbortController>();
  readonly #options: Required<Omit<JobWorkerOptions, 'env' | 'live'>> &
    Pick<JobWorkerOptions, 'env' | 'live'>;

  constructor(options: JobWorkerOptions) {
    this.#options = {
      pollingIntervalSeconds: 2,
      maintenanceIntervalSeconds: 30,
      heartbeatSeconds: 2,
      deadAfterSeconds: 10,
      lostFetchSeconds: 30,
      ...options,
    };
    if (!(this.#options.deadAfterSeconds >= 2 * this.#options.heartbeatSeconds)) {
      throw new Error('deadAfterSeconds must be at least twice heartbeatSeconds');
    }
  }

  get state(): WorkerState {
    return this.#state;
  }

  async start(): Promise<void> {
    if (this.#state !== 'idle') throw new Error(`The job worker cannot start: it is ${this.#state}`);
    this.#state = 'starting';
    const { db, jobs, log, pollingIntervalSeconds, maintenanceIntervalSeconds } = this.#options;
    keepEngineRejections(log);
    this.#engineDb = new EngineDb(db);
    const boss = new PgBoss(
      bossOptions(this.#engineDb, {
        migrate: false,
        supervise: true,
        maintenanceIntervalSeconds,
        pollingIntervalSeconds,
      }),
    );
    boss.on('error', (err) => log.error({ err }, 'job engine error'));
    try {
      await boss.start();
    } catch (error) {
      this.#state = 'stopped';
      const message = error instanceof Error ? error.message : String(error);
      if (/not installed|requires migrations/.test(message)) {
        throw new Error(
          `The job engine's tables are missing or old (${message}): run the migrate step first`,
        );
      }
      throw error;
    }
    this.#boss = boss;
    await ensureQueues(boss, jobs);
    // Beat before taking jobs; then hand back what a dead predecessor left running (a restarted worker
    // cleans up after itself at once when its old beat is already stale).
    this.#heartbeat = new Heartbeat({
      db,
      id: this.id,
      log,
      intervalSeconds: this.#options.heartbeatSeconds,
      deadAfterSeconds: this.#options.deadAfterSeconds,
      onLost: () => this.#abortAll(),
      afterBeat: () => (this.#state === 'started' ? this.#handBack() : Promise.resolve()),
    });
    try {
      await this.#heartbeat.start();
    } catch (error) {
      this.#state = 'stopped';
      await boss.stop({ graceful: false, close: false }).catch(() => undefined);
      const message = error instanceof Error ? error.message : String(error);
      if (/job_workers.*does not exist/.test(message)) {
        throw new Error(`The job status tables are old (${message}): run the migrate step first`);
      }
      throw error;
    }
    await this.#handBack();
    for (const job of jobs) {
      // pg-boss waits out the polling interval after every fetch, jobs found or not: one job per 2 s
      // per queue (the event outbox fell behind a crowd's writes). After a job the queue is asked
      // again at once; only an empty queue waits the interval.
      let worker = '';
      worker = await boss.work<JobEnvelope>(
        job.name,
        { includeMetadata: true, batchSize: 1, pollingIntervalSeconds },
        ([item]) => this.#run(job, item!).finally(() => worker && boss.notifyWorker(worker)),
      );
    }
    this.#timer = setInterval(() => {
      reconcile(db, this.#publish).catch((err: unknown) => log.error({ err }, 'job status reconcile failed'));
      this.#completeLostOutcomes().catch((err: unknown) =>
        log.error({ err }, 'recording lost job outcomes failed'),
      );
    }, maintenanceIntervalSeconds * 1000);
    this.#timer.unref();
    this.#state = 'started';
    log.info({ jobs: jobs.map((j) => j.name), worker: this.id }, 'job worker started');
  }

  /**
   * Stops taking jobs, waits up to `graceSeconds` for running ones, then
   * hands what is still running back to the queue (it is retried).
   */
  async stop(graceSeconds = 20): Promise<void> {
    if (this.#state !== 'started') return;
    this.#state = 'stopping';
    clearInterval(this.#timer);
    const deadline = Date.now() + graceSeconds * 1000;
    await this.#boss!.stop({ graceful: true, wait: true, close: false, timeout: graceSeconds * 1000 });
    await this.#settled(deadline);
    await reconcile(this.#options.db, this.#publish).catch(() => undefined);
    // Beats go on while running jobs finish (above), so no one takes them meanwhile.
    await this.#heartbeat!.stop().catch((err: unknown) =>
      this.#options.log.error({ err }, 'heartbeat stop failed'),
    );
    this.#state = 'stopped';
    this.#options.log.info('job worker stopped');
  }

  /**
   * pg-boss's stop does not wait for a fetch under way: the job it brings runs after stop resolved, and
   * its queries would meet a closed pool. Waits for the engine's calls and the attempts they start to end,
   * giving up at the deadline (or 1 s from now, if that is later).
   */
  async #settled(deadline: number): Promise<void> {
    const until = Math.max(deadline, Date.now() + 1000);
    // A fetch's job enters #run a few microtasks after the fetch ends: a timer tick lets it.
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (!this.#engineDb!.inFlight && !this.#attempts) return;
    }
  }

  // The outbox's own jobs are plumbing: their events are published by the dispatcher instead.
  readonly #publish = (row: Parameters<typeof publishJobChange>[1]) => {
    if (row?.kind !== EVENT_DISPATCH_QUEUE) publishJobChange(this.#options.live, row);
  };

  /**
   * Retries the running jobs of dead workers, and the jobs whose fetch never
   * reached a worker: claims their status rows, then fails the attempts in
   * pg-boss, which counts them (retry_count) and applies the job's retry
   * delay and backoff as its own expiry would: a job that kills its worker
   * (out of memory) must not go round the workers in a tight loop.
   */
  async #handBack(): Promise<void> {
    const { db, deadAfterSeconds, lostFetchSeconds } = this.#options;
    await this.#failClaimed(
      await claimOrphanedJobs(db, this.id, deadAfterSeconds),
      DEAD_WORKER_ERROR,
      'jobs of a dead worker handed back for retry',
    );
    await this.#failClaimed(
      await claimLostFetches(db, lostFetchSeconds),
      LOST_FETCH_ERROR,
      'jobs whose fetch was lost handed back for retry',
    );
  }

  async #failClaimed(claimed: JobStatusChange[], message: string, logMessage: string) {
    if (!claimed.length) return;
    // A throw here leaves a claimed job `active` in pg-boss: its expiry still retries it.
    for (const row of claimed) await this.#boss!.fail(row.kind, row.id, { message });
    for (const row of claimed) this.#publish(row);
    this.#options.log.warn({ jobs: claimed.map((o) => o.id) }, logMessage);
  }

  /** Records in pg-boss the outcome of finished attempts it never heard of, so their jobs leave `active`. */
  async #completeLostOutcomes(): Promise<void> {
    const lost = await findLostOutcomes(this.#options.db, this.#options.lostFetchSeconds);
    // The status record is final: a failed job completes too, with the output a permanent failure gives.
    for (const job of lost) {
      const output = job.state === 'done' ? (job.result ?? null) : { failed: true, message: job.error };
      await this.#boss!.complete(job.kind, job.id, output as object);
    }
    if (lost.length)
      this.#options.log.warn({ jobs: lost.map((j) => j.id) }, 'lost outcomes of finished jobs recorded');
  }

  /** Another worker took this one for dead (stalled past deadAfterSeconds) and retries its jobs. */
  #abortAll() {
    if (!this.#running.size) return;
    this.#options.log.warn(
      { jobs: [...this.#running.keys()] },
      'job worker was taken for dead; aborting its attempts',
    );
    for (const controller of this.#running.values()) controller.abort();
  }

  /** One attempt of one job; the return value is pg-boss's output, a throw makes pg-boss retry or fail it. */
  async #run(def: JobDefinition, job: PgBoss.JobWithMetadata<JobEnvelope>): Promise<unknown> {
    this.#attempts++;
    try {
      return await this.#attempt(def, job);
    } finally {
      this.#attempts--;
    }
  }

  async #attempt(def: JobDefinition, job: PgBoss.JobWithMetadata<JobEnvelope>): Promise<unknown> {
    const { db, log } = this.#options;
    const envelope = job.data;
    const attempt = job.retryCount + 1;
    const maxAttempts = job.retryLimit + 1;
    const jobLog = log.child({ job: job.id, kind: def.name, attempt });

    // A previous attempt finished but its completion was lost (crash): do not run it again.
    const previous = await readForRun(db, job.id);
    if (previous?.state === 'done') return previous.result;
    if (previous?.state === 'failed') return { failed: true };

    const meta = {
      id: job.id,
      kind: def.name,
      tenant: envelope?.tenant ?? 'unknown',
      createdBy: envelope?.created_by ?? null,
    };
    const running = await markRunning(db, meta, attempt, maxAttempts, this.id);
    // Taken for a lost fetch meanwhile (a very late answer) and failed in pg-boss for a retry: not ours to run.
    if (!running) throw new Error(LOST_FETCH_ERROR);
    this.#publish(running);
    jobLog.info('job started');

    const controller = new AbortController();
    this.#running.set(job.id, controller);
    const timer = setTimeout(() => controller.abort(), def.expireInSeconds * 1000);
    timer.unref();
    try {
      if (!envelope || !Value.Check(def.schema, envelope.input)) {
        throw new JobError('The job was given data it cannot use.', { permanent: true });
      }
      const ctx: JobContext<unknown> = {
        ...meta,
        data: envelope.input,
        attempt,
        maxAttempts,
        db,
        env: this.#options.env,
        log: jobLog,
        signal: controller.signal,
        progress: async (percent, message) =>
          this.#publish(await setProgress(db, job.id, attempt, percent, message)),
        once: (step, fn) => once(db, job.id, step, fn),
        live: this.#options.live,
      };
      const result = await def.handler(ctx);
      this.#publish(await markFinished(db, job.id, attempt, { state: 'done', result }));
      jobLog.info('job done');
      return result ?? null;
    } catch (error) {
      const message = readableError(error);
      const permanent = error instanceof JobError && error.permanent;
      const retrying = !permanent && job.retryCount < job.retryLimit;
      this.#publish(
        await markFinished(db, job.id, attempt, { state: retrying ? 'queued' : 'failed', error: message }),
      );
      jobLog.warn({ err: error, retrying }, 'job attempt failed');
      // A permanent failure completes the pg-boss job (no retry); the status record says failed.
      if (permanent) return { failed: true, message };
      throw error;
    } finally {
      clearTimeout(timer);
      this.#running.delete(job.id);
    }
  }
}

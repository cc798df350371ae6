import PgBoss from 'pg-boss';
import { Value } from '@sinclair/typebox/value';
import type { Db, Env, Logger } from '@portal/core';
import { adapterFor, bossOptions, ensureQueues } from './boss';
import { JobError, readableError, type JobContext, type JobDefinition } from './define';
import type { JobEnvelope } from './enqueue';
import { EVENT_DISPATCH_QUEUE } from './events';
import { publishJobChange, type LivePublisher } from './live';
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
  /** How often expired attempts (crashed workers) are detected and status records reconciled (default 30 s). */
  maintenanceIntervalSeconds?: number;
  /** Where job state changes (and the event dispatcher's committed events) are published for live screens. */
  live?: LivePublisher;
}

export type WorkerState = 'idle' | 'starting' | 'started' | 'stopping' | 'stopped';

/**
 * Runs the handlers of the given job kinds, one job at a time per kind, on
 * the process's database (pg pool or PGlite). Any number of workers may run
 * against one database: pg-boss hands each job to one of them
 * (`FOR UPDATE SKIP LOCKED`). pg-boss's schema must be installed first
 * (migrateJobs, in the migrate step).
 */
export class JobWorker {
  #state: WorkerState = 'idle';
  #boss: PgBoss | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #options: Required<Omit<JobWorkerOptions, 'env' | 'live'>> &
    Pick<JobWorkerOptions, 'env' | 'live'>;

  constructor(options: JobWorkerOptions) {
    this.#options = { pollingIntervalSeconds: 2, maintenanceIntervalSeconds: 30, ...options };
  }

  get state(): WorkerState {
    return this.#state;
  }

  async start(): Promise<void> {
    if (this.#state !== 'idle') throw new Error(`The job worker cannot start: it is ${this.#state}`);
    this.#state = 'starting';
    const { db, jobs, log, pollingIntervalSeconds, maintenanceIntervalSeconds } = this.#options;
    const boss = new PgBoss(
      bossOptions(adapterFor(db), {
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
    for (const job of jobs) {
      await boss.work<JobEnvelope>(
        job.name,
        { includeMetadata: true, batchSize: 1, pollingIntervalSeconds },
        ([item]) => this.#run(job, item!),
      );
    }
    this.#timer = setInterval(() => {
      reconcile(db, this.#publish).catch((err: unknown) => log.error({ err }, 'job status reconcile failed'));
    }, maintenanceIntervalSeconds * 1000);
    this.#timer.unref();
    this.#state = 'started';
    log.info({ jobs: jobs.map((j) => j.name) }, 'job worker started');
  }

  /**
   * Stops taking jobs, waits up to `graceSeconds` for running ones, then
   * hands what is still running back to the queue (it is retried).
   */
  async stop(graceSeconds = 20): Promise<void> {
    if (this.#state !== 'started') return;
    this.#state = 'stopping';
    clearInterval(this.#timer);
    await this.#boss!.stop({ graceful: true, wait: true, close: false, timeout: graceSeconds * 1000 });
    await reconcile(this.#options.db, this.#publish).catch(() => undefined);
    this.#state = 'stopped';
    this.#options.log.info('job worker stopped');
  }

  // The outbox's own jobs are plumbing: their events are published by the dispatcher instead.
  readonly #publish = (row: Parameters<typeof publishJobChange>[1]) => {
    if (row?.kind !== EVENT_DISPATCH_QUEUE) publishJobChange(this.#options.live, row);
  };

  /** One attempt of one job; the return value is pg-boss's output, a throw makes pg-boss retry or fail it. */
  async #run(def: JobDefinition, job: PgBoss.JobWithMetadata<JobEnvelope>): Promise<unknown> {
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
    this.#publish(await markRunning(db, meta, attempt, maxAttempts));
    jobLog.info('job started');

    const controller = new AbortController();
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
    }
  }
}

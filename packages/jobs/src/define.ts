import type { Static, TSchema } from '@sinclair/typebox';
import type { Db, Env, Logger, Queryable } from '@portal/core';
import type { LivePublisher } from './live';

/**
 * What a handler gets for one attempt of one job.
 *
 * Handlers must make their effect idempotent keyed by `id`: an attempt can be
 * repeated after a crash, a timeout or a lost completion. Database effects
 * go through `once(step, tx => ...)`, which commits the step's writes together
 * with a marker so that a later attempt skips it; an outside effect (a mail,
 * a webhook call, an upload) sends `id` (or `${id}:${step}`) as its
 * idempotency key or checks first whether it already happened.
 */
export interface JobContext<T> {
  /** The job id (a UUID, also the id of its status record). */
  id: string;
  kind: string;
  tenant: string;
  /** The user who started the job; null for jobs the system starts. */
  createdBy: number | null;
  /** The input, checked against the job's schema. */
  data: T;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
  db: Db;
  /** The worker process's env when the worker was given one (runner modes do); undefined in bare tests. */
  env: Env | undefined;
  log: Logger;
  /** Aborted when the attempt runs out of time (expireInSeconds): stop early, the job will be retried. */
  signal: AbortSignal;
  /** Records progress (0-100) and a message a person can read on the job's screen. */
  progress(percent: number, message?: string): Promise<void>;
  /** Runs `fn` in a transaction once per job: a retried attempt gets the first result back. */
  once<R>(step: string, fn: (tx: Queryable) => Promise<R>): Promise<R>;
  /** Live updates (issue 21): publish only what has committed; never awaited, never throws. */
  live?: LivePublisher;
}

export interface JobOptions {
  /** Retries after the first attempt (default 3). */
  retryLimit?: number;
  /** Seconds before the first retry (default 5); doubled for each later retry when retryBackoff is set. */
  retryDelaySeconds?: number;
  /** Exponential backoff with jitter between retries (default true). */
  retryBackoff?: boolean;
  /** Longest an attempt may run (default 900); pg-boss then retries it (a dead worker's, sooner: liveness.ts). */
  expireInSeconds?: number;
}

export interface JobDefinition<S extends TSchema = TSchema, R = unknown> extends Required<JobOptions> {
  /** The pg-boss queue name: lowercase words with dots or dashes, e.g. `case.bulk-close`. */
  name: string;
  schema: S;
  // Method syntax on purpose: a JobDefinition<TSchema> list accepts every specific job.
  handler(ctx: JobContext<Static<S>>): Promise<R>;
}

const NAME = /^[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*$/;

/** Declares a job kind; register it with the worker and the migrate step (services/runner JOBS). */
export function defineJob<S extends TSchema, R>(
  definition: { name: string; schema: S; handler: (ctx: JobContext<Static<S>>) => Promise<R> } & JobOptions,
): JobDefinition<S, R> {
  if (!NAME.test(definition.name) || definition.name.length > 50) {
    throw new Error(`Invalid job name '${definition.name}' (lowercase words joined by '.' or '-')`);
  }
  const job = {
    retryLimit: 3,
    retryDelaySeconds: 5,
    retryBackoff: true,
    expireInSeconds: 900,
    ...definition,
  };
  if (!Number.isInteger(job.retryLimit) || job.retryLimit < 0) throw new Error('retryLimit must be >= 0');
  if (!Number.isInteger(job.retryDelaySeconds) || job.retryDelaySeconds < 1)
    throw new Error('retryDelaySeconds must be a whole number >= 1');
  if (!Number.isInteger(job.expireInSeconds) || job.expireInSeconds < 1 || job.expireInSeconds >= 86400)
    throw new Error('expireInSeconds must be a whole number of seconds below 24 hours');
  return job;
}

/**
 * An error whose message a person can read on the job's screen. Any other
 * error shows a generic message (its details go to the log and pg-boss's
 * job output). `permanent` errors are not retried (bad input, a deleted
 * target): the job ends `failed` at once.
 */
export class JobError extends Error {
  readonly permanent: boolean;
  constructor(message: string, options: { permanent?: boolean; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'JobError';
    this.permanent = options.permanent ?? false;
  }
}

export const GENERIC_JOB_ERROR =
  'The job failed because of an internal error; it was logged for the operators.';

/** The message shown for an error thrown by a handler. */
export function readableError(error: unknown): string {
  return error instanceof JobError ? error.message.slice(0, 2000) : GENERIC_JOB_ERROR;
}

import { randomUUID } from 'node:crypto';
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Queryable } from '@portal/core';
import { adapterFor, queueOptions, senderBoss } from './boss';
import type { JobDefinition } from './define';

/** What pg-boss stores as a job's data: who it is for, and the handler's input. */
export interface JobEnvelope<T = unknown> {
  tenant: string;
  created_by: number | null;
  input: T;
}

export interface EnqueueOptions {
  tenant: string;
  /** The user who caused the job (null for the system). */
  createdBy: number | null;
  /**
   * At most one unfinished job of this kind per tenant and key: while one is
   * queued or running, enqueue answers its id instead of adding another.
   */
  singletonKey?: string;
  /** Do not start before this time. */
  startAfter?: Date;
}

export interface Enqueued {
  id: string;
  /** false when an unfinished job with the same singletonKey was answered instead. */
  created: boolean;
}

/**
 * Adds a job inside the caller's transaction: it exists (status `queued`)
 * when the transaction commits, and never if it rolls back. Throws when the
 * data does not match the job's schema or the job kind was not installed by
 * the migrate step.
 */
export async function enqueue<S extends TSchema>(
  tx: Queryable,
  job: JobDefinition<S>,
  data: Static<S>,
  options: EnqueueOptions,
): Promise<Enqueued> {
  if (!Value.Check(job.schema, data)) {
    const first = Value.Errors(job.schema, data).First();
    throw new Error(`Invalid data for job ${job.name}: ${first?.path || '/'} ${first?.message ?? ''}`.trim());
  }
  const id = randomUUID();
  for (;;) {
    const { rows } = await tx.query<{ id: string }>(
      `insert into jobs.job_status (id, kind, tenant, created_by, state, max_attempts, singleton_key, message)
       values ($1, $2, $3, $4, 'queued', $5, $6, 'Waiting to start')
       on conflict (tenant, kind, singleton_key) where singleton_key is not null and state in ('queued', 'running')
       do nothing returning id`,
      [id, job.name, options.tenant, options.createdBy, job.retryLimit + 1, options.singletonKey ?? null],
    );
    if (rows.length) break;
    const existing = await tx.query<{ id: string }>(
      `select id from jobs.job_status where tenant = $1 and kind = $2 and singleton_key = $3
         and state in ('queued', 'running')`,
      [options.tenant, job.name, options.singletonKey],
    );
    // (When that job finished in between, try the insert again.)
    if (existing.rows[0]) return { id: existing.rows[0].id, created: false };
  }
  const envelope: JobEnvelope = { tenant: options.tenant, created_by: options.createdBy, input: data };
  const { name: _name, policy: _policy, ...retry } = queueOptions(job);
  const sent = await senderBoss().send(job.name, envelope, {
    ...retry,
    id,
    db: adapterFor(tx),
    ...(options.startAfter ? { startAfter: options.startAfter } : {}),
  });
  if (sent !== id) {
    throw new Error(
      `Job queue '${job.name}' is not installed: add the job to the runner's JOBS and run migrate`,
    );
  }
  return { id, created: true };
}

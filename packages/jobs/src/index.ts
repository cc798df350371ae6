/**
 * The one background job engine (design §9): pg-boss on the portal's own
 * database (Postgres, or the embedded PGlite through an executeSql adapter),
 * plus a status record per job for screens (`jobs.job_status`).
 *
 *   defineJob(...)                 a job kind: name, TypeBox schema, handler, retries, time limit
 *   enqueue(tx, job, data, meta)   adds a job inside the caller's transaction
 *   JobWorker                      runs handlers (runner mode `worker`; in process under `npm start`)
 *   getJobStatus / listJobStatuses what screens show
 *   migrateJobs(db, jobs)          the migrate step: tables, pg-boss schema, queues
 *   enqueueMail(tx, ...)           a mail sent by the worker once the transaction commits
 *   selfScheduledJob(...)          a job that runs every N seconds and schedules its own next run
 */
/** TypeBox, to write job schemas with (`defineJob({ schema: Type.Object(...) })`). */
export { Type } from '@sinclair/typebox';
export * from './boss';
export { EngineDb } from './engine-db';
export * from './define';
export * from './enqueue';
export * from './migrate';
export * from './status';
export * from './steps';
export * from './worker';
export { DEAD_WORKER_ERROR, LOST_FETCH_ERROR } from './liveness';
export * from './events';
export * from './live';
export * from './mail';
export * from './self-scheduled';

/**
 * Worker liveness on the embedded PGlite (one connection shared by every
 * worker of the process): a dead worker's job is retried by a live one within
 * seconds; a live worker's long job is never taken.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { openPglite, type Db } from '@portal/core';
import { migrateJobs } from '@portal/jobs';
import { quietLog } from './helpers';
import {
  deadPeerIsTakenOver,
  liveWorkersJobIsKept,
  lostFetchIsRetried,
  lostOutcomeIsRecorded,
} from './liveness-scenarios';
import { createTestTables, TEST_JOBS } from './test-jobs';

let db: Db;

beforeAll(async () => {
  db = await openPglite(join(mkdtempSync(join(tmpdir(), 'jobs-pglite-liveness-')), 'db'));
  await migrateJobs(db, TEST_JOBS, quietLog());
  await createTestTables(db);
});
afterAll(async () => {
  await db?.close();
});

it('hands a dead worker’s job to a live one', () => deadPeerIsTakenOver(db));

it('never takes a live worker’s long job', () => liveWorkersJobIsKept(db));

it('retries a job whose fetch never reached a worker, long before its time limit', () =>
  lostFetchIsRetried(db));

it('records in pg-boss the outcome of a finished job it never heard of, without running it again', () =>
  lostOutcomeIsRecorded(db));

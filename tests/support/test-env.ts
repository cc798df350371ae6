import { randomBytes } from 'node:crypto';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import {
  connectPostgres,
  createLogger,
  loadEnv,
  PROCESS_NAMES,
  RedisCache,
  type Db,
  type Env,
  type ServiceDeps,
} from '@portal/core';
import { withDatabase } from './servers';

/**
 * A test file's own world: a database cloned from the run's seeded template
 * and a Redis key prefix nobody else uses, so files never see each other's
 * writes. Call in beforeAll; `close()` in afterAll.
 */
export interface TestEnv {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  env: Env;
  deps: ServiceDeps;
  db: Db;
  close(): Promise<void>;
}

export async function createTestEnv(overrides: Record<string, string> = {}): Promise<TestEnv> {
  const run = inject('testRun');
  const id = randomBytes(4).toString('hex');
  const database = `${run.clonePrefix}_${id}`;
  const admin = new pg.Client({ connectionString: run.postgresUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${database} template ${run.template}`);
  } finally {
    await admin.end();
  }
  const databaseUrl = withDatabase(run.postgresUrl, database);
  const redisPrefix = `test:${run.runId}:${id}:`;
  const env = loadEnv(PROCESS_NAMES, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: `.data/test/${id}`,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '5',
    REDIS_URL: run.redisUrl,
    REDIS_KEY_PREFIX: redisPrefix,
    INTERNAL_CONTEXT_SECRET: randomBytes(32).toString('base64url'),
    ...overrides,
  });
  // The template's demo files (templates, issuer documents), as the migrate step leaves them in a store.
  cpSync(run.seedObjectsDir, join(env.DATA_DIR, 'objects'), { recursive: true });
  const log = createLogger(env, 'test');
  const db = await connectPostgres(databaseUrl, env.DATABASE_POOL_SIZE, log);
  const cache = new RedisCache({ url: run.redisUrl, keyPrefix: redisPrefix, log });
  if (!(await cache.ready(5000))) throw new Error(`Redis at ${run.redisUrl} did not answer`);
  const deps: ServiceDeps = { env, db, cache, log, contextSecret: env.INTERNAL_CONTEXT_SECRET! };
  return {
    databaseUrl,
    redisUrl: run.redisUrl,
    redisPrefix,
    env,
    deps,
    db,
    close: async () => {
      await cache.close();
      await jobsEnded(db);
      await db.close();
    },
  };
}

/**
 * Waits (up to 10 s) for the job attempts still running in the database to end. A test's worker can begin
 * the migrate step's scheduled jobs, due in a clone of an older template, as it stops, and pg-boss resolves
 * the stop before they end: their queries then met the closed pool (an unhandled rejection in CI).
 */
async function jobsEnded(db: Db): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    const running = await db
      .query(`select 1 from jobs.job_status where state = 'running' limit 1`)
      .catch(() => ({ rowCount: 0 }));
    if (!running.rowCount) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

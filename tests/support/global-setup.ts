import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { connectPostgres, createLogger, loadEnv } from '@portal/core';
import { copySeedObjects } from '@portal/docs-service';
import { migrateAll, seedAll } from '@portal/runner';
import { resolveServers, withDatabase } from './servers';

/**
 * Once per test run: find the servers, build a template database (migrated and
 * seeded with the default demo data), and hand its name to the test files,
 * which clone it into a database of their own (tests/support/test-env.ts).
 * Everything the run created is dropped at the end.
 */
export interface TestRun {
  postgresUrl: string;
  redisUrl: string;
  runId: string;
  template: string;
  /** The demo files of the template's seed as a filesystem object store, copied into each file's DATA_DIR. */
  seedObjectsDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testRun: TestRun;
  }
}

export default async function setup(project: TestProject) {
  const servers = await resolveServers();
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const template = `portal_t_${runId}`;
  const admin = new pg.Client({ connectionString: servers.postgresUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const db = await connectPostgres(withDatabase(servers.postgresUrl, template), 4);
  const log = createLogger({ LOG_LEVEL: 'warn', NODE_ENV: 'test' }, 'test-setup');
  // The seed step's object store (what `migrate` does for a deployment), once per run.
  const seedDataDir = `.data/test/seed-${runId}`;
  try {
    await migrateAll(db, log);
    await seedAll(db, 'default', log);
    await copySeedObjects(db, loadEnv(['docs'], { NODE_ENV: 'test', DATA_DIR: seedDataDir }), log);
  } finally {
    await db.close();
  }
  project.provide('testRun', {
    postgresUrl: servers.postgresUrl,
    redisUrl: servers.redisUrl,
    runId,
    template,
    seedObjectsDir: join(seedDataDir, 'objects'),
  });

  return async () => {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1`,
      [`portal_t_${runId}%`],
    );
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    await admin.end();
    const redis = new Redis(servers.redisUrl);
    const stream = redis.scanStream({ match: `test:${runId}:*`, count: 500 });
    for await (const keys of stream as AsyncIterable<string[]>) if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await servers.stop();
    rmSync(seedDataDir, { recursive: true, force: true });
  };
}

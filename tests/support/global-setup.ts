import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { connectPostgres, createLogger, loadEnv } from '@portal/core';
import { copySeedObjects } from '@portal/docs-service';
import { migrateAll, seedAll } from '@portal/runner';
import { resolveServers, withDatabase } from './servers';

/**
 * Once per test run: find the servers, find or build the template database
 * (migrated and seeded with the default demo data), and hand its name to the
 * test files, which clone it into a database of their own
 * (tests/support/test-env.ts). Everything else the run created is dropped at
 * the end.
 *
 * The template is kept for the next run (the browser tests after the
 * integration tests of one `npm test`, the next `npm test`): its name holds a
 * hash of what builds it (migrations, seeds and the code they run) and the
 * day (the seed is dated from today). A template under another name, older
 * than a day, is dropped.
 */
export interface TestRun {
  postgresUrl: string;
  redisUrl: string;
  runId: string;
  template: string;
  /** Prefix of the databases this run clones from the template (dropped at the end). */
  clonePrefix: string;
  /** The demo files of the template's seed as a filesystem object store, copied into each file's DATA_DIR. */
  seedObjectsDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testRun: TestRun;
  }
}

/** What the template is built from: every source and migration of the services and packages, and the config. */
function templateKey(): string {
  // The checkout too: the template's demo files live in its .data/test, so another checkout of the same
  // code (a CI clone) builds its own rather than clone a database whose files it lacks.
  const hash = createHash('sha256').update(process.cwd());
  for (const top of ['services', 'packages', 'config']) {
    const files = readdirSync(top, { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile() && /\.(ts|sql|json|ya?ml|csv|pdf|jpe?g|png)$/.test(f.name))
      .map((f) => join(f.parentPath, f.name))
      .filter((f) => !/(^|\/)(node_modules|dist)\//.test(f) && !f.endsWith('.test.ts'))
      .sort();
    for (const f of files) hash.update(f).update(readFileSync(f));
  }
  return hash.digest('hex').slice(0, 12);
}

const TEMPLATE_PREFIX = 'portal_tpl_';
const DAY_MS = 86_400_000;

/** The template of this code and day, built unless an earlier run left it; with its seed objects. */
async function ensureTemplate(admin: pg.Client, postgresUrl: string) {
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  const template = `${TEMPLATE_PREFIX}${templateKey()}_${day}`;
  const seedDataDir = join('.data/test', template);
  const objectsDir = join(seedDataDir, 'objects');
  const ready = async () =>
    (await admin.query('select 1 from pg_database where datname = $1', [template])).rowCount === 1 &&
    existsSync(join(seedDataDir, 'ready'));
  if (!(await ready())) {
    // Built under a name of its own, then renamed: a run never clones a half-built template, and two
    // runs building at once both succeed (the second's rename fails and its copy is dropped).
    const building = `${TEMPLATE_PREFIX}build_${randomBytes(4).toString('hex')}`;
    const buildDir = `${seedDataDir}.${building}`;
    await admin.query(`create database ${building}`);
    const db = await connectPostgres(withDatabase(postgresUrl, building), 4);
    const log = createLogger({ LOG_LEVEL: 'warn', NODE_ENV: 'test' }, 'test-setup');
    try {
      await migrateAll(db, log);
      await seedAll(db, 'default', log);
      // The seed step's object store (what `migrate` does for a deployment).
      await copySeedObjects(db, loadEnv(['docs'], { NODE_ENV: 'test', DATA_DIR: buildDir }), log);
    } finally {
      await db.close();
    }
    try {
      await admin.query(`alter database ${building} rename to ${template}`);
      await admin.query(`comment on database ${template} is '${Date.now()}'`);
      cpSync(join(buildDir, 'objects'), objectsDir, { recursive: true });
      writeFileSync(join(seedDataDir, 'ready'), '');
    } catch (error) {
      await admin.query(`drop database if exists ${building} with (force)`);
      if (!(await ready())) throw error;
    } finally {
      rmSync(buildDir, { recursive: true, force: true });
    }
  }
  await pruneTemplates(admin, template);
  return { template, objectsDir };
}

/** Templates of other code or days, a day old: no run still clones them. */
async function pruneTemplates(admin: pg.Client, keep: string) {
  const { rows } = await admin.query<{ datname: string; made: string | null }>(
    `select d.datname, shobj_description(d.oid, 'pg_database') as made from pg_database d
     where d.datname like $1 and d.datname <> $2`,
    [`${TEMPLATE_PREFIX}%`, keep],
  );
  for (const r of rows) {
    if (r.made === null || Date.now() - Number(r.made) < DAY_MS) continue;
    await admin.query(`drop database if exists ${r.datname} with (force)`);
    rmSync(join('.data/test', r.datname), { recursive: true, force: true });
  }
}

export default async function setup(project: TestProject) {
  const servers = await resolveServers();
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: servers.postgresUrl });
  await admin.connect();
  const { template, objectsDir } = await ensureTemplate(admin, servers.postgresUrl);
  project.provide('testRun', {
    postgresUrl: servers.postgresUrl,
    redisUrl: servers.redisUrl,
    runId,
    template,
    clonePrefix: `portal_t_${runId}`,
    seedObjectsDir: objectsDir,
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
  };
}

/**
 * The runner's `migrate` mode as docker compose and the Kubernetes Job run it:
 * the built bundle, NODE_ENV=production, and only the variables of the
 * migrate process (no INTERNAL_CONTEXT_SECRET, no REDIS_URL). It used to
 * refuse to start for want of the context key it never uses.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { withDatabase } from '../../support/servers';

const ROOT = resolve(import.meta.dirname, '../../..');
const RUNNER = join(ROOT, 'services/runner/dist/main.js');
const run = inject('testRun');
const database = `portal_t_${run.runId}_migrate_${randomBytes(3).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'migrate-production-'));

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: run.postgresUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
});

afterAll(async () => {
  const admin = new pg.Client({ connectionString: run.postgresUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The runner's migrate mode with exactly these variables (plus PATH), as a container gets them. */
function migrate(vars: Record<string, string>) {
  return spawnSync(process.execPath, [RUNNER, 'migrate'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', LOG_FORMAT: 'json', ...vars },
    encoding: 'utf8',
    timeout: 300_000,
  });
}

it('migrates and seeds in production with the migrate variables only', async () => {
  expect(existsSync(RUNNER), 'the runner is built (npm test builds it first)').toBe(true);
  const databaseUrl = withDatabase(run.postgresUrl, database);
  // The Kubernetes Job: no demo data.
  const bare = migrate({ DATABASE_URL: databaseUrl, SEED_SCALE: 'none', DATA_DIR: dataDir });
  expect(bare.stderr).toBe('');
  expect(bare.status).toBe(0);
  // docker compose's demo stack: a seed, whose files go to the object store (the filesystem one here).
  const seeded = migrate({
    DATABASE_URL: databaseUrl,
    SEED_SCALE: '10',
    DATA_DIR: dataDir,
  });
  expect(seeded.stderr).toBe('');
  expect(seeded.status).toBe(0);
  expect(seeded.stdout).toContain('demo files copied from the seed');
  expect(readdirSync(join(dataDir, 'objects'))).toEqual(expect.arrayContaining(['acme', 'northbank']));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from cases.cases`);
    expect(rows[0]!.n).toBeGreaterThanOrEqual(20);
  } finally {
    await client.end();
  }
}, 240_000);

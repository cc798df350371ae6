/**
 * `npm run demo:reset` (runner mode `reset`, services/runner/src/reset.ts): after a demo changed data,
 * queued a job, filled the cache, stored uploads and wrote mail, a reset leaves what a first start
 * leaves (same row counts and checksums of the key tables), on Postgres and on the embedded PGlite;
 * and it refuses while the embedded portal runs and under NODE_ENV=production.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GATEWAY_HEALTH_PATH, revokedSessionKey } from '@portal/contracts';
import {
  connectPostgres,
  createLogger,
  loadEnv,
  openPglite,
  outboxDir,
  PORTAL_KEY_NAMESPACE,
  type Db,
  type Env,
} from '@portal/core';
import { resolveDocsLinkSecret, uploadLinkPurgeJob } from '@portal/docs-service';
import { enqueue } from '@portal/jobs';
import { migrateAll, seedDemo } from '@portal/runner';
import { lookupPrefix } from '../../../gateway/src/cache/lookup-routes';
import { liveSlotsKey } from '../../../gateway/src/live/connection-limit';
import { impersonationKey, profileKey } from '../../../gateway/src/profile/profiles';
import { stackConfigKey } from '../../../gateway/src/stack-config/stack-config';
import { resetDemo, ResetRefused, resetSchemas } from '../../../services/runner/src/reset';
import { withDatabase } from '../../support/servers';

const log = createLogger({ LOG_LEVEL: 'warn', NODE_ENV: 'test' }, 'demo-reset-test');
const tempDirs: string[] = [];
function tempDir(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `demo-reset-${name}-`));
  tempDirs.push(dir);
  return dir;
}

/** The environment of the reset mode (its processes), for a test's database, Redis prefix and DATA_DIR. */
function resetEnv(vars: Record<string, string>): Env {
  return loadEnv(['migrate', 'worker', 'gateway'], {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    SEED_SCALE: '50',
    ...vars,
  });
}

/** A loopback port nothing listens on (a portal must not answer there). */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Stable columns of the tables a demo changes (no timestamps, hashes or random ids). */
const CHECKSUMS: Record<string, string> = {
  cases: `select id, tenant_id, merchant_id, mid_id, case_no, status_id, date_post, dispute_amt, verdict_id,
            is_flagged, assigned_user_id, cc_bin from cases.cases`,
  comments: `select tenant_id, case_id, user_id, username, text from cases.case_comments`,
  merchants: `select id, tenant_id, parent_id, business_name, status_id from cases.merchants`,
  users: `select id, tenant, username, email, role_id, merchant_id, status_id, is_read_only from users.users`,
  jobs: `select kind, tenant, state from jobs.job_status`,
  queued: `select name, state from pgboss.job`,
};

/** Row counts of every table of the reset schemas, and checksums of the key tables. */
interface Fingerprint {
  counts: Record<string, number>;
  sums: Record<string, string>;
}
async function fingerprint(db: Db): Promise<Fingerprint> {
  const { rows: tables } = await db.query<{ name: string }>(
    `select schemaname || '.' || tablename as name from pg_tables where schemaname = any($1) order by 1`,
    [resetSchemas()],
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ${name}`);
    counts[name] = rows[0]!.n;
  }
  const sums: Record<string, string> = {};
  for (const [name, sql] of Object.entries(CHECKSUMS)) {
    const { rows } = await db.query<{ h: string }>(
      `select md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as h from (${sql}) r`,
    );
    sums[name] = rows[0]!.h;
  }
  return { counts, sums };
}

/**
 * The ERT seed picks cases by `now()` windows (created more than three hours and less than N days ago), so
 * a seed a minute later may pick a case more or fewer; alerts are dated minutes before `now()` and counted
 * per UTC day and per month, so a later seed may move one across midnight: these counts are compared
 * within a margin.
 */
const TIME_WINDOWED = ['cases.erts', 'cases.case_history', 'cases.alert_daily_counts', 'cases.alert_monthly'];

/** The reset left what a first start leaves: every count and checksum (time-windowed counts nearly). */
function expectFreshState(actual: Fingerprint, fresh: Fingerprint) {
  const strict = ({ counts, sums }: Fingerprint) => ({
    counts: Object.fromEntries(Object.entries(counts).filter(([table]) => !TIME_WINDOWED.includes(table))),
    sums,
  });
  expect(strict(actual)).toEqual(strict(fresh));
  for (const table of TIME_WINDOWED) {
    const [was, now] = [fresh.counts[table]!, actual.counts[table]!];
    expect(Math.abs(now - was), table).toBeLessThanOrEqual(Math.max(3, was * 0.05));
  }
}

/** What a demo does to the data: a status change, a comment, a new user, a queued job. */
async function changeDemoData(db: Db) {
  const { rows } = await db.query<{ id: number; tenant_id: string }>(
    `select id, tenant_id from cases.cases order by id limit 1`,
  );
  const first = rows[0]!;
  await db.query(
    `update cases.cases set status_id = (select min(s.id) from cases.statuses s where s.id <> cases.status_id)
     where id = $1`,
    [first.id],
  );
  await db.query(
    `insert into cases.case_comments (tenant_id, case_id, user_id, username, text) values ($1, $2, 1, 'agent', 'demo note')`,
    [first.tenant_id, first.id],
  );
  await db.query(
    `insert into users.users (tenant, username, email, role_id, merchant_id)
     values ('acme', 'demo.extra', 'extra@example.com', (select min(id) from users.roles), 1)`,
  );
  await db.transaction((tx) =>
    enqueue(tx, uploadLinkPurgeJob, { slot: 7 }, { tenant: 'acme', createdBy: null }),
  );
}

/** Leftovers of a demo outside the database: an uploaded file and a mail. */
function leaveFiles(dataDir: string) {
  const upload = join(dataDir, 'objects', 'acme', 'representments', randomUUID());
  mkdirSync(upload, { recursive: true });
  writeFileSync(join(upload, 'upload.pdf'), '%PDF-1.4 demo');
  writeFileSync(join(upload, '.upload.pdf.meta.json'), '{"contentType":"application/pdf","size":13}');
  mkdirSync(outboxDir(dataDir), { recursive: true });
  writeFileSync(join(outboxDir(dataDir), 'mail-1.eml'), 'Subject: demo');
  writeFileSync(join(outboxDir(dataDir), 'mail-1.json'), '{}');
  return upload;
}

/** Object keys (`<tenant>/<area>/<uuid>/<name>`) in the filesystem store. */
function storedKeys(dataDir: string): string[] {
  const root = join(dataDir, 'objects');
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
    .filter((key) => !key.startsWith('.'))
    .sort();
}

afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('on Postgres and Redis', () => {
  const run = inject('testRun');
  const prefix = `test:${run.runId}:reset${randomBytes(3).toString('hex')}:`;
  const dataDir = tempDir('pg');
  let env: Env;
  let db: Db;
  let redis: Redis;

  beforeAll(async () => {
    // An empty database of its own (named with the run's clone prefix, so the run drops it), seeded as npm start does.
    const database = `${run.clonePrefix}_reset_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: run.postgresUrl });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
    env = resetEnv({
      DATABASE_URL: withDatabase(run.postgresUrl, database),
      REDIS_URL: run.redisUrl,
      REDIS_KEY_PREFIX: prefix,
      DATA_DIR: dataDir,
    });
    db = await connectPostgres(env.DATABASE_URL!, 2, log);
    await migrateAll(db, log);
    await seedDemo(db, env, log);
    redis = new Redis(run.redisUrl, { keyPrefix: prefix });
  });
  afterAll(async () => {
    redis?.disconnect();
    await db?.close();
  });

  it('puts the data, the cache, the uploads and the outbox back to a first start', async () => {
    const fresh = await fingerprint(db);
    const demoFiles = storedKeys(dataDir);
    expect(fresh.counts['cases.cases']).toBe(100);
    expect(demoFiles.length).toBeGreaterThan(0);

    await changeDemoData(db);
    const upload = leaveFiles(dataDir);
    // A key the running portal generated into DATA_DIR/keys (the download links' key) survives the reset.
    const linkSecret = resolveDocsLinkSecret(env);
    await redis.set(`${PORTAL_KEY_NAMESPACE}profile:acme:1`, '{}');
    await redis.set('other-app:keep', '1');
    const changed = await fingerprint(db);
    expect(changed.sums).not.toEqual(fresh.sums);
    expect(changed.counts['users.users']).toBe(fresh.counts['users.users']! + 1);

    const result = await resetDemo(env);

    expectFreshState(await fingerprint(db), fresh);
    expect(storedKeys(dataDir)).toEqual(demoFiles);
    expect(existsSync(upload)).toBe(false);
    expect(readdirSync(outboxDir(dataDir))).toEqual([]);
    expect(existsSync(join(dataDir, 'keys', 'docs-link.secret'))).toBe(true);
    expect(resolveDocsLinkSecret(env)).toBe(linkSecret);
    expect(await redis.exists(`${PORTAL_KEY_NAMESPACE}profile:acme:1`)).toBe(0);
    expect(await redis.get('other-app:keep')).toBe('1');
    expect(result).toMatchObject({ removedObjects: 1, removedMails: 1 });
    expect(result.summary).toMatch(/^Demo reset in \d+\.\d s: demo data, Postgres .*SEED_SCALE=50/);
    expect(result.notes.join('\n')).toMatch(/must sign in again/);
  });

  it('clears only keys in the portal namespace, which every Redis key the portal writes is in', () => {
    const profile = { id: 1, role: 'admin', merchant: { id: 2 } } as unknown as Parameters<
      typeof impersonationKey
    >[2];
    for (const key of [
      profileKey('acme', 1),
      impersonationKey('acme', 1, profile),
      lookupPrefix('acme'),
      stackConfigKey('acme', 1, 'v', 'name'),
      liveSlotsKey('acme', 1),
      revokedSessionKey('acme', 'sid'),
    ])
      expect(key.startsWith(PORTAL_KEY_NAMESPACE)).toBe(true);
  });

  it('with SEED_SCALE=none leaves the schemas empty of demo data', async () => {
    await resetDemo({ ...env, SEED_SCALE: 'none' });
    const { counts } = await fingerprint(db);
    expect(counts['cases.cases']).toBe(0);
    expect(counts['users.users']).toBe(0);
    expect(storedKeys(dataDir)).toEqual([]);
  });

  it('refuses under NODE_ENV=production without the flag, and changes nothing', async () => {
    await expect(resetDemo({ ...env, NODE_ENV: 'production' })).rejects.toThrow(
      /NODE_ENV=production.*--yes-drop-production-data/,
    );
    await expect(resetDemo({ ...env, NODE_ENV: 'production' })).rejects.toBeInstanceOf(ResetRefused);
  });
});

describe('on the embedded PGlite', () => {
  let portal: Server | undefined;
  afterAll(async () => {
    if (portal) await new Promise((resolve) => portal!.close(resolve));
  });

  it('refuses while a portal answers on PORT', async () => {
    portal = createServer((req, res) => {
      res.writeHead(req.url === GATEWAY_HEALTH_PATH ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok', checks: { redis: 'off', postgres: 'up', case: 'up' } }));
    });
    await new Promise<void>((resolve) => portal!.listen(0, '127.0.0.1', resolve));
    const { port } = portal.address() as AddressInfo;
    const env = resetEnv({ DATA_DIR: tempDir('running'), PORT: String(port) });
    await expect(resetDemo(env)).rejects.toThrow(
      `The portal is running on port ${port}: stop \`npm start\` first`,
    );
  });

  it(
    'refuses while the database is open in another process, then resets it once closed',
    { timeout: 240_000 },
    async () => {
      const dataDir = tempDir('pglite');
      const env = resetEnv({ DATA_DIR: dataDir, PORT: String(await unusedPort()), SEED_SCALE: '10' });
      let db = await openPglite(join(dataDir, 'pglite'));
      await migrateAll(db, log);
      await seedDemo(db, env, log);
      const fresh = await fingerprint(db);
      await changeDemoData(db);
      leaveFiles(dataDir);

      // This process holds the database open, as `npm start` on another PORT would.
      await expect(resetDemo(env)).rejects.toThrow(/is open in process \d+: stop `npm start` first/);
      await db.close();

      const result = await resetDemo(env);
      expect(result).toMatchObject({ removedObjects: 1, removedMails: 1 });
      expect(result.summary).toMatch(/PGlite in .*in-process cache: nothing to clear/);
      db = await openPglite(join(dataDir, 'pglite'));
      try {
        expectFreshState(await fingerprint(db), fresh);
      } finally {
        await db.close();
      }
    },
  );
});

/**
 * Runner mode `reset` (`npm run demo:reset`): puts the demo data back to the
 * state a first `npm start` leaves, without a rebuild and in one short run.
 *
 *   1. refuses when it must not run: NODE_ENV=production without
 *      --yes-drop-production-data, or the embedded database open in another
 *      process (PGlite is one process only);
 *   2. drops every schema the migrate step creates (the four services' and
 *      their _api schemas, the jobs status records, pg-boss's queues; each
 *      holds its schema_migrations)
 *      and runSeedOnce's markers, in one transaction;
 *   3. migrates and seeds again exactly as `npm start` / `npm run migrate` do
 *      (migrateAll, seedDemo with SEED_SCALE; none leaves empty schemas);
 *   4. clears what the demo leaves elsewhere: the portal's Redis keys, files
 *      uploaded to the filesystem object store, and the mail outbox. Keys in
 *      DATA_DIR/keys stay, and so do objects in an S3 bucket (never deleted
 *      blindly; the demo files are put back by key).
 */
import { existsSync } from 'node:fs';
import { readdir, readlink, realpath, rm, rmdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { GATEWAY_HEALTH_PATH } from '@portal/contracts';
import {
  createCache,
  createLogger,
  forgetSeeds,
  loadEnv,
  openDatabase,
  outboxDir,
  PORTAL_KEY_NAMESPACE,
  type Db,
  type Env,
  type ProcessName,
} from '@portal/core';
import { jobMigrations, PGBOSS_SCHEMA } from '@portal/jobs';
import { migrateAll, parseSeedScale, seedDemo, SERVICES } from './stack';

/** The flag that lets a reset run with NODE_ENV=production (compose's demo stack runs in production mode). */
const PRODUCTION_FLAG = '--yes-drop-production-data';

/**
 * What a reset reads: the migrate step's database and seed scale, the worker's Redis, object store and
 * mail, the gateway's PORT (is the embedded portal running?). loadEnv reads only the named processes' variables.
 */
const RESET_PROCESSES: readonly ProcessName[] = ['migrate', 'worker', 'gateway'];

/** A reason not to reset, as one line a person acts on (no stack trace). */
export class ResetRefused extends Error {
  override readonly name = 'ResetRefused';
}

interface ResetOptions {
  /** NODE_ENV=production resets only with this (the PRODUCTION_FLAG). */
  allowProduction?: boolean;
  /** Told once the checks passed and the reset starts (the runner prints it: a default seed takes a while). */
  onStart?: (line: string) => void;
}

interface ResetResult {
  ms: number;
  /** Milliseconds of each step, in order: drop, migrate, seed, clean. */
  phases: Array<[string, number]>;
  removedObjects: number;
  removedMails: number;
  /** One line: what was reset and how long it took. */
  summary: string;
  /** Lines for the people using a running portal (Postgres), or about S3. */
  notes: string[];
}

/**
 * Every schema the migrate step creates (runSeedOnce's markers are in public: forgetSeeds): each service's
 * own and its `<schema>_api` of views and functions for the others (design §13; dropped if it has one).
 */
export function resetSchemas(): string[] {
  const services = Object.values(SERVICES).map((s) => s.migrations.schema);
  return [...services, ...services.map((s) => `${s}_api`), jobMigrations.schema, PGBOSS_SCHEMA];
}

function refuseProduction(nodeEnv: Env['NODE_ENV'], allowProduction: boolean | undefined) {
  // A real deployment must not lose its data to one mistyped command; compose's demo stack (NODE_ENV=production)
  // may be reset on purpose.
  if (nodeEnv === 'production' && !allowProduction)
    throw new ResetRefused(
      `NODE_ENV=production: demo:reset drops every table of the portal. Refused; add ${PRODUCTION_FLAG} if this really is a demo stack.`,
    );
}

/** True when a portal gateway answers its health route on this port (its answer names the services). */
async function portalAnswers(port: number): Promise<boolean> {
  try {
    const answer = await fetch(`http://127.0.0.1:${port}${GATEWAY_HEALTH_PATH}`, {
      signal: AbortSignal.timeout(1500),
    });
    const body = (await answer.json()) as { checks?: Record<string, unknown> };
    return typeof body.checks === 'object' && body.checks !== null && 'postgres' in body.checks;
  } catch {
    return false;
  }
}

/**
 * Processes holding a file under dir open (Linux /proc), or undefined where
 * /proc cannot tell. An open PGlite keeps its WAL and catalog files open.
 */
async function processesHolding(dir: string): Promise<number[] | undefined> {
  if (!existsSync('/proc/self/fd')) return undefined;
  const prefix = (await realpath(dir)) + sep;
  const holders: number[] = [];
  for (const pid of (await readdir('/proc')).filter((p) => /^\d+$/.test(p))) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      if (target.startsWith(prefix)) {
        holders.push(Number(pid));
        break;
      }
    }
  }
  return holders;
}

const STOP_FIRST = 'stop `npm start` first (Ctrl-C), then run `npm run demo:reset` again';

/**
 * PGlite in two processes corrupts it: refuse while the embedded portal runs.
 * Its gateway's answer on PORT is one sign; PGlite's postmaster.pid is the
 * other (the portal may run on another PORT), confirmed by /proc, because a
 * killed run leaves a stale one that PGlite itself opens over.
 */
async function refuseIfEmbeddedOpen(env: Env) {
  if (await portalAnswers(env.PORT))
    throw new ResetRefused(`The portal is running on port ${env.PORT}: ${STOP_FIRST}.`);
  const dir = join(env.DATA_DIR, 'pglite');
  const lock = join(dir, 'postmaster.pid');
  if (!existsSync(lock)) return;
  const holders = await processesHolding(dir);
  if (holders === undefined)
    throw new ResetRefused(
      `The embedded database in ${dir} looks open (${lock} exists): ${STOP_FIRST}; if nothing runs, delete that file.`,
    );
  if (holders.length)
    throw new ResetRefused(
      `The embedded database in ${dir} is open in process ${holders.join(', ')}: ${STOP_FIRST}.`,
    );
}

/** Drops the migrate step's schemas and the seed markers, all or nothing. */
async function dropPortalData(db: Db) {
  const schemas = resetSchemas();
  if (schemas.some((s) => !/^[a-z_][a-z0-9_]*$/.test(s)))
    throw new Error(`Invalid schema in ${schemas.join(', ')}`);
  await db.transaction(async (tx) => {
    // Running services (Postgres) hold short locks; a long wait fails here and changes nothing.
    await tx.query(`set local lock_timeout = '15s'`);
    await tx.query(`drop schema if exists ${schemas.join(', ')} cascade`);
    await forgetSeeds(tx);
  });
}

/**
 * Removes the filesystem store's objects whose key the fresh seed does not
 * list (`<tenant>/<area>/<uuid>/<name>`, one object per uuid directory): the
 * uploads and exports of the demo. The seed's files stay, as seedDemo put
 * back any that were missing; `.incoming` (writes under way) is left alone.
 */
async function removeUploadedObjects(db: Db, root: string): Promise<number> {
  if (!existsSync(root)) return 0;
  const { rows } = await db.query<{ key: string }>(`select key from docs.objects`);
  const seeded = new Set(rows.map((r) => r.key.split('/').slice(0, 3).join('/')));
  const dirs = async (path: string) =>
    (await readdir(path, { withFileTypes: true }).catch(() => []))
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  let removed = 0;
  for (const tenant of await dirs(root)) {
    for (const area of await dirs(join(root, tenant))) {
      for (const id of await dirs(join(root, tenant, area))) {
        if (seeded.has(`${tenant}/${area}/${id}`)) continue;
        await rm(join(root, tenant, area, id), { recursive: true, force: true });
        removed++;
      }
      await rmdir(join(root, tenant, area)).catch(() => undefined); // only when now empty
    }
    await rmdir(join(root, tenant)).catch(() => undefined);
  }
  return removed;
}

/** Deletes the mail written to DATA_DIR/outbox (one .eml and one .json per mail); answers the mail count. */
async function clearOutbox(dataDir: string): Promise<number> {
  const dir = outboxDir(dataDir);
  const files = await readdir(dir).catch(() => []);
  for (const file of files) await rm(join(dir, file), { recursive: true, force: true });
  return files.filter((f) => f.endsWith('.eml')).length;
}

/** Where the reset goes, without the database password. */
function describeTarget(env: Env): string {
  const url = env.DATABASE_URL ? new URL(env.DATABASE_URL) : undefined;
  const where = url ? `Postgres ${url.host}${url.pathname}` : `PGlite in ${join(env.DATA_DIR, 'pglite')}`;
  return `${where}, SEED_SCALE=${env.SEED_SCALE}`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The reset itself (runReset is the runner mode around it); throws ResetRefused when it must not run. */
export async function resetDemo(env: Env, options: ResetOptions = {}): Promise<ResetResult> {
  refuseProduction(env.NODE_ENV, options.allowProduction);
  if (!env.DATABASE_URL) await refuseIfEmbeddedOpen(env);
  options.onStart?.(`Resetting the demo data (${describeTarget(env)})…`);
  const started = Date.now();
  // Migrate and seed log a line per step at info; a reset prints its summary instead (LOG_LEVEL=debug shows them).
  const log = createLogger({ ...env, LOG_LEVEL: env.LOG_LEVEL === 'info' ? 'warn' : env.LOG_LEVEL }, 'reset');
  const phases: Array<[string, number]> = [];
  const phase = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const t = Date.now();
    const result = await run();
    phases.push([name, Date.now() - t]);
    return result;
  };
  const db = await openDatabase(env, log);
  const cache = createCache(env, log);
  let removedObjects = 0;
  let removedMails = 0;
  let redisCleared = false;
  try {
    await phase('drop', () => dropPortalData(db));
    await phase('migrate', () => migrateAll(db, log));
    await phase('seed', () => seedDemo(db, env, log));
    await phase('clean', async () => {
      // The in-process cache lives in the portal's own process: nothing of it is here to clear.
      redisCleared = cache.kind === 'redis' && (await cache.ready(5000));
      if (redisCleared) await cache.delPrefix(PORTAL_KEY_NAMESPACE);
      if (!env.S3_ENDPOINT) removedObjects = await removeUploadedObjects(db, join(env.DATA_DIR, 'objects'));
      removedMails = await clearOutbox(env.DATA_DIR);
    });
  } finally {
    await cache.close();
    await db.close();
  }
  const ms = Date.now() - started;
  const seeded = parseSeedScale(env.SEED_SCALE) ? 'demo data' : 'empty schemas (SEED_SCALE=none)';
  const cacheDone =
    cache.kind === 'memory'
      ? 'in-process cache: nothing to clear'
      : `Redis keys ${env.REDIS_KEY_PREFIX}${PORTAL_KEY_NAMESPACE}* ${redisCleared ? 'cleared' : 'NOT cleared (Redis did not answer)'}`;
  const summary =
    `Demo reset in ${seconds(ms)}: ${seeded}, ${describeTarget(env)} ` +
    `(${phases.map(([name, t]) => `${name} ${seconds(t)}`).join(', ')}); ` +
    `${cacheDone}; ${removedObjects} uploaded file(s) and ${removedMails} mail(s) removed`;
  const notes: string[] = [];
  if (env.DATABASE_URL)
    notes.push(
      'Signed-in users must sign in again (their sessions were dropped)' +
        (cache.kind === 'memory' ? '; restart running services to drop their in-process caches.' : '.'),
    );
  if (env.S3_ENDPOINT)
    notes.push(
      `Files uploaded to S3 bucket '${env.S3_BUCKET}' are left there (only the demo files are put back, by key).`,
    );
  return { ms, phases, removedObjects, removedMails, summary, notes };
}

/** Runner mode `reset`: args are what follows the mode (only PRODUCTION_FLAG). */
export async function runReset(args: readonly string[]): Promise<void> {
  const allowProduction = args.includes(PRODUCTION_FLAG);
  try {
    const unknown = args.find((a) => a !== PRODUCTION_FLAG);
    if (unknown)
      throw new ResetRefused(`Unknown argument '${unknown}': demo:reset takes only ${PRODUCTION_FLAG}.`);
    // Refused before the full configuration is read: production requires variables a refusal does not need.
    refuseProduction(loadEnv([]).NODE_ENV, allowProduction);
    const result = await resetDemo(loadEnv(RESET_PROCESSES), { allowProduction, onStart: console.log });
    console.log(result.summary);
    for (const note of result.notes) console.log(note);
  } catch (error) {
    if (!(error instanceof ResetRefused)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}

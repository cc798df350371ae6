/**
 * A throwaway portal for checking the mix by hand (mix-check.ts): its own
 * database on the local Postgres (created, migrated and seeded at the default
 * scale, dropped on close), its own Redis key prefix, the four services, the
 * gateway and a job worker in this process. Never touches another database.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { connectPostgres, createLogger, loadEnv, PROCESS_NAMES, RedisCache } from '@portal/core';
import { copySeedObjects } from '@portal/docs-service';
import { migrateAll, seedAll, startStack } from '@portal/runner';

export interface OwnPortal {
  gatewayUrl: string;
  databaseUrl: string;
  close(options?: { keepDatabase?: boolean }): Promise<void>;
}

const SERVER = process.env.MIX_PG_SERVER ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The repository's tenant files, whatever the working directory. */
const TENANT_CONFIG_DIR = fileURLToPath(new URL('../../../../config/tenants', import.meta.url));

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Deletes this portal's Redis keys (its own prefix: rate-limit counters, caches). */
async function dropRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Creates `mixcheck_<random>` (or reuses `name` when it is already seeded), seeds it, starts the stack. */
export async function startOwnPortal(
  name = `mixcheck_${randomBytes(4).toString('hex')}`,
): Promise<OwnPortal> {
  if (!/^mixcheck_[a-z0-9_]+$/.test(name)) throw new Error(`refusing database name ${name}`);
  const exists = await (async () => {
    const client = new pg.Client({ connectionString: SERVER });
    await client.connect();
    try {
      return (await client.query(`select 1 from pg_database where datname = $1`, [name])).rowCount === 1;
    } finally {
      await client.end();
    }
  })();
  if (!exists) await admin(`create database ${name}`);
  const databaseUrl = withDatabase(SERVER, name);
  const dataDir = join(tmpdir(), name);
  const env = loadEnv(PROCESS_NAMES, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '10',
    REDIS_URL: REDIS,
    REDIS_KEY_PREFIX: `${name}:`,
    SEED_SCALE: 'default',
    TENANT_CONFIG_DIR,
    INTERNAL_CONTEXT_SECRET: randomBytes(32).toString('base64url'),
  });
  const log = createLogger(env, 'mix-check');
  const db = await connectPostgres(databaseUrl, env.DATABASE_POOL_SIZE, log);
  await migrateAll(db, log);
  await seedAll(db, 'default', log);
  await copySeedObjects(db, env, log);
  const cache = new RedisCache({ url: REDIS, keyPrefix: env.REDIS_KEY_PREFIX, log });
  if (!(await cache.ready(5000))) throw new Error(`Redis at ${REDIS} did not answer`);
  const stack = await startStack(
    { env, db, cache, log, contextSecret: env.INTERNAL_CONTEXT_SECRET! },
    { gatewayPort: 0, gatewayHost: '127.0.0.1', metricsPort: null, worker: { pollingIntervalSeconds: 0.5 } },
  );
  return {
    gatewayUrl: stack.gatewayUrl,
    databaseUrl,
    async close(options = {}) {
      await stack.close();
      await cache.close();
      await db.close();
      if (options.keepDatabase) return;
      await admin(`drop database if exists ${name} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
      await dropRedisKeys(`${name}:`);
    },
  };
}

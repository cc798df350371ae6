/**
 * Users grid and export benchmark (issue 16): 100,000 users in one tenant,
 * then p50/p95 of the grid's page, search and sort calls through the user
 * service app (provider staff, whole tenant), and the streamed export of all
 * of them: rows/s and the process's peak RSS while it runs.
 *
 *   npm run bench -- users          (BENCH_USERS, default 100000; BENCH_RUNS, default 40)
 *
 * Targets: page, search and sort p95 <= 50 ms; export >= 20,000 rows/s, <= 200 MB.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { it } from 'vitest';
import { demoMerchantId, demoTenant } from '@portal/contracts';
import {
  connectPostgres,
  createLogger,
  loadEnv,
  PROCESS_NAMES,
  RedisCache,
  type ServiceDeps,
} from '@portal/core';
import { migrateAll, seedAll } from '@portal/runner';
import { withDatabase } from '../support/servers';
import type { TestEnv } from '../support/test-env';
import { buildUserWithCase, userHeaders } from '../integration/user/support';

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);

/** A fresh database (migrated, demo-seeded) for this run; dropped at the end. */
async function benchEnv(): Promise<TestEnv & { drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL!;
  const redisUrl = process.env.REDIS_URL!;
  const name = `portal_bench_users_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const databaseUrl = withDatabase(server, name);
  const redisPrefix = `bench:${name}:`;
  const env = loadEnv(PROCESS_NAMES, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATA_DIR: `.data/bench/${name}`,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '5',
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: redisPrefix,
    INTERNAL_CONTEXT_SECRET: randomBytes(32).toString('base64url'),
    // The bench measures the streamed export of every user, which would otherwise be mailed (202).
    EXPORT_MAIL_THRESHOLD_ROWS: '100000000',
  });
  const log = createLogger(env, 'bench');
  const db = await connectPostgres(databaseUrl, 5, log);
  await migrateAll(db, log);
  await seedAll(db, 'default', log);
  const cache = new RedisCache({ url: redisUrl, keyPrefix: redisPrefix, log });
  const deps: ServiceDeps = { env, db, cache, log, contextSecret: env.INTERNAL_CONTEXT_SECRET! };
  return {
    databaseUrl,
    redisUrl,
    redisPrefix,
    env,
    deps,
    db,
    close: async () => {
      await cache.close();
      await db.close();
    },
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

it(`users grid and export at ${USERS} users`, async () => {
  const t = await benchEnv();
  const { app, close } = await buildUserWithCase(t);
  try {
    const acme = demoTenant('acme');
    const merchants = (['merchantA1', 'merchantA2', 'merchantB1'] as const).map((k) =>
      demoMerchantId(acme, k),
    );
    const started = performance.now();
    await t.db.query(
      `insert into users.users (tenant, username, email, fname, lname, role_id, merchant_id, status_id, password_hash)
       select 'acme', 'bench.user' || g, 'bench' || g || '@example.com', 'First' || (g % 997), 'Last' || (g % 1009),
              case when g % 2 = 0 then 4 else 5 end, ($2::bigint[])[1 + g % 3], case when g % 17 = 0 then 6 else 1 end, null
         from generate_series(1, $1::int) g`,
      [USERS, merchants],
    );
    // The steady state autovacuum keeps (statistics and the visibility map for index-only scans).
    await t.db.query('vacuum analyze users.users');
    console.log(`seeded ${USERS} users in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // A signed context is short-lived: sign one per call.
    const headers = () => userHeaders(t, 'acme', 'admin');
    const time = async (url: string) => {
      const s = performance.now();
      const r = await app.inject({ method: 'GET', url, headers: headers() });
      if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
      return performance.now() - s;
    };
    const calls: Record<string, (i: number) => string> = {
      page: (i) => `/users/users?start=${(i * 997) % (USERS - 25)}&limit=25`,
      search: (i) => `/users/users?search=bench.user${1000 + i}&limit=25`,
      sort: (i) =>
        `/users/users?sort_by=${i % 2 ? 'name' : 'username'}&sort_order=desc&start=${i * 25}&limit=25`,
    };
    for (const [name, url] of Object.entries(calls)) {
      for (let i = 0; i < 5; i++) await time(url(i));
      const xs: number[] = [];
      for (let i = 0; i < RUNS; i++) xs.push(await time(url(i)));
      console.log(
        `${name.padEnd(7)} p50 ${pct(xs, 50).toFixed(1)} ms  p95 ${pct(xs, 95).toFixed(1)} ms  (target p95 <= 50 ms)`,
      );
    }

    // Export: the whole tenant downloaded over HTTP as a browser would (read as it streams, not buffered
    // like inject), the process's RSS sampled while it runs; what the export adds is peak minus before.
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const download = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(`${address}${path}`, { headers: headers() }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode}`));
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve(bytes));
          res.on('error', reject);
        });
        req.on('error', reject);
      });
    global.gc?.();
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    for (const format of ['csv', 'xlsx'] as const) {
      global.gc?.();
      const start = process.memoryUsage().rss;
      peak = start;
      const s = performance.now();
      const bytes = await download(`/users/users.${format}?export_type=all`);
      const seconds = (performance.now() - s) / 1000;
      const total = USERS + 12;
      console.log(
        `export ${format}: ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s, ` +
          `${Math.round(total / seconds)} rows/s (target >= 20,000); peak RSS ${(peak / 1e6).toFixed(0)} MB, ` +
          `${((peak - start) / 1e6).toFixed(0)} MB above the ${(start / 1e6).toFixed(0)} MB before it (target: <= 200 MB added)`,
      );
    }
    clearInterval(sampler);
  } finally {
    await close();
    await t.close();
    await t.drop();
  }
});

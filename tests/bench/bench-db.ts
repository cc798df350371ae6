/**
 * What the case-scale benchmarks share: the large seeded database (kept
 * between runs, marked when complete), a Db that records the SQL a call runs
 * (for EXPLAIN), and percentiles.
 */
import pg from 'pg';
import {
  buildServiceApp,
  connectPostgres,
  MemoryCache,
  migrate,
  type Db,
  type Logger,
  type Queryable,
} from '@portal/core';
import { migrateJobs } from '@portal/jobs';
import { JOBS, SERVICES } from '@portal/runner';
import { caseMigrations, seedCases } from '../../services/case/src/index';

export const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

export async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: SERVER });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The case schema and the job engine (writes enqueue their domain events in their transaction). */
async function migrateCaseDb(db: Db) {
  await migrate(db, caseMigrations);
  await migrateJobs(db, JOBS);
}

/** The case database seeded with `casesPerTenant` per demo tenant; `seconds` is null when an earlier run seeded it. */
export async function seedInto(
  name: string,
  casesPerTenant: number,
  reseed: boolean,
): Promise<{ db: Db; seconds: number | null }> {
  const exists = await admin(
    async (c) => (await c.query(`select 1 from pg_database where datname = $1`, [name])).rowCount === 1,
  );
  if (exists && reseed) await admin((c) => c.query(`drop database ${name} with (force)`));
  if (!exists || reseed) await admin((c) => c.query(`create database ${name}`));
  const db = await connectPostgres(withDb(SERVER, name), 8);
  const marker = await db.query(
    `select 1 from information_schema.tables where table_schema = 'public' and table_name = 'bench_seeded'`,
  );
  if (marker.rowCount) {
    // Migrations added since the seed (new tables, indexes, job queues) still apply.
    await migrateCaseDb(db);
    return { db, seconds: null };
  }
  const started = performance.now();
  await migrateCaseDb(db);
  await seedCases(db, { cases: casesPerTenant });
  const seconds = (performance.now() - started) / 1000;
  await db.query(`create table public.bench_seeded (seconds float8 not null)`);
  await db.query(`insert into public.bench_seeded values ($1)`, [seconds]);
  return { db, seconds };
}

/** Wraps a Db to record the SQL a call runs, for EXPLAIN. */
export function recording(db: Db) {
  const log: Array<{ sql: string; params: readonly unknown[] }> = [];
  let on = false;
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      if (on) log.push({ sql, params: params ?? [] });
      return q.query(sql, params);
    },
  });
  const rec: Db = {
    kind: db.kind,
    query: (sql, params) => wrap(db).query(sql, params),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    stream: (sql, params, size) => db.stream(sql, params, size),
    close: () => db.close(),
  };
  return {
    db: rec,
    capture: async (fn: () => Promise<unknown>) => {
      log.length = 0;
      on = true;
      try {
        await fn();
      } finally {
        on = false;
      }
      return [...log];
    },
  };
}

/** EXPLAIN (ANALYZE, BUFFERS) of every read a captured call ran. */
export async function explainAll(
  db: Queryable,
  statements: Array<{ sql: string; params: readonly unknown[] }>,
): Promise<string[]> {
  const plans: string[] = [];
  for (const s of statements) {
    if (!/^\s*(select|with)/i.test(s.sql)) continue;
    const plan = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${s.sql}`, s.params);
    plans.push(
      `-- ${s.sql.replace(/\s+/g, ' ').trim().slice(0, 300)}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`,
    );
  }
  return plans;
}

export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export const BENCH_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

/** The case service's app over `db` wrapped by recording(), for inject() calls signed with BENCH_SECRET. */
export async function caseBenchApp(db: Db, log: Logger) {
  const rec = recording(db);
  const app = await buildServiceApp(SERVICES.case.definition, {
    env: {} as never,
    db: rec.db,
    cache: new MemoryCache(),
    log,
    contextSecret: BENCH_SECRET,
  });
  return { app, rec };
}

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Env } from './env';
import type { Logger } from './logger';
import { runMarkedAsTransaction } from './tx-guard';

/**
 * The database handle every service uses: real Postgres through a pg pool, or
 * embedded PGlite (one in-process instance shared by all services) when
 * DATABASE_URL is unset. SQL is plain, parameterised, schema-qualified
 * (`cases.cases`, `users.users`): one schema per service.
 */
export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}
export interface QueryOptions {
  /**
   * Prepare the statement once per connection and reuse its plan (Postgres plans a generic one after five
   * runs). Only for a fixed text run on every request whose plan does not depend on its values, such as
   * rows by id: planning such a join costs as much as running it. PGlite ignores it.
   */
  prepared?: boolean;
}
export interface Queryable {
  query<R = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<QueryResult<R>>;
}
export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /**
   * Runs fn in one transaction; it commits when fn resolves and rolls back when it throws. Outside
   * production fn runs marked as "in a transaction": a service call made from it throws (tx-guard.ts).
   * When Postgres ends the transaction to break a deadlock, fn runs again in a new one: keep anything
   * but its queries out of fn, or safe to repeat.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Streams a large result in batches (exports); uses a cursor on Postgres. */
  stream<R = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[],
    batchSize: number,
  ): AsyncIterable<R[]>;
  close(): Promise<void>;
}

// Dates stay 'yyyy-MM-dd' strings, int8 and numeric become numbers (ids and money fit in a double).
const DATE_OID = 1082;
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const parsers: Record<number, (value: string) => unknown> = {
  [DATE_OID]: (value) => value,
  [INT8_OID]: (value) => Number(value),
  [NUMERIC_OID]: (value) => Number(value),
};

/**
 * Runs fn's reads in one snapshot (REPEATABLE READ, READ ONLY): an answer composed of several
 * queries shows one moment, never a row read before a concurrent commit beside one read after it.
 */
export function readSnapshot<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('set transaction isolation level repeatable read, read only');
    return fn(tx);
  });
}

export interface DbOptions {
  /**
   * Refuse service-to-service calls made inside `transaction()` (tx-guard.ts). On by default;
   * `openDatabase` turns it off when NODE_ENV=production.
   */
  guardCalls?: boolean;
}

/** fn, run marked as inside a transaction when the guard is on. */
const guarded = <T>(on: boolean, kind: string, fn: () => Promise<T>) =>
  on ? runMarkedAsTransaction(kind, fn) : fn();

/** A prepared statement's name: node-postgres prepares a name once per connection and refuses one name with two texts. */
const statementNames = new Map<string, string>();
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name)
    statementNames.set(sql, (name = `p${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`));
  return name;
}
const queryConfig = (sql: string, params: readonly unknown[], options?: QueryOptions) => ({
  text: sql,
  values: params as unknown[],
  ...(options?.prepared ? { name: statementName(sql) } : {}),
});

const DEADLOCK_DETECTED = '40P01';
const DEADLOCK_ATTEMPTS = 3;

/**
 * Runs a statement or a transaction again when Postgres chose it to break a deadlock: it was rolled back
 * whole, so nothing of it stays. Two writes can take the same rollup rows in different orders (a
 * representment's status change and another case's verdict under a crowd, issue 31).
 */
async function againAfterDeadlock<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if ((error as { code?: unknown }).code !== DEADLOCK_DETECTED || attempt >= DEADLOCK_ATTEMPTS)
        throw error;
      // A short pause of random length: the other transaction finishes first, and two victims part.
      await new Promise((resolve) => setTimeout(resolve, attempt * (10 + Math.random() * 40)));
    }
  }
}

class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  constructor(
    private readonly pool: pg.Pool,
    private readonly guardCalls = true,
  ) {}

  async query<R>(
    sql: string,
    params: readonly unknown[] = [],
    options?: QueryOptions,
  ): Promise<QueryResult<R>> {
    const result = await againAfterDeadlock(() => this.pool.query(queryConfig(sql, params, options)));
    return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return againAfterDeadlock(() => this.transactionOnce(fn));
  }

  private async transactionOnce<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const tx: Queryable = {
        query: async <R>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) => {
          const r = await client.query(queryConfig(sql, params, options));
          return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
        },
      };
      const value = await guarded(this.guardCalls, 'Postgres', () => fn(tx));
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async *stream<R>(sql: string, params: readonly unknown[], batchSize: number): AsyncIterable<R[]> {
    const client = await this.pool.connect();
    const cursor = `export_${Math.random().toString(36).slice(2)}`;
    try {
      await client.query('BEGIN READ ONLY');
      await client.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sql}`, params as unknown[]);
      for (;;) {
        const batch = await client.query(`FETCH ${batchSize} FROM ${cursor}`);
        if (batch.rows.length === 0) break;
        yield batch.rows as R[];
        if (batch.rows.length < batchSize) break;
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  close() {
    return this.pool.end();
  }
}

/**
 * rowCount: the count of the statement's command tag, as pg's rowCount (rows a SELECT read, rows an
 * INSERT/UPDATE/DELETE changed); unset for tags without one (CREATE...). affectedRows counts changed
 * rows only: 0 for a SELECT, so `select 1 ... ; if (!rowCount)` would refuse on PGlite alone.
 */
interface PGliteTx {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number; rowCount?: number }>;
  exec(sql: string): Promise<Array<{ rows: unknown[]; affectedRows?: number; rowCount?: number }>>;
}

/**
 * PGlite's query() uses the extended protocol (one statement); a script of
 * several statements without parameters (a migration file) goes through
 * exec(), as pg's simple protocol does on Postgres.
 */
const isScript = (sql: string, params: readonly unknown[]) => params.length === 0 && /;\s*\S/.test(sql);
async function runOn<R>(target: PGliteTx, sql: string, params: readonly unknown[]): Promise<QueryResult<R>> {
  if (isScript(sql, params)) {
    const results = await target.exec(sql);
    const last = results[results.length - 1];
    return {
      rows: (last?.rows ?? []) as R[],
      rowCount: last?.rowCount ?? last?.affectedRows ?? last?.rows.length ?? 0,
    };
  }
  const r = await target.query<R>(sql, params as unknown[]);
  return { rows: r.rows, rowCount: r.rowCount ?? r.affectedRows ?? r.rows.length };
}

class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  constructor(
    private readonly lite: PGlite,
    private readonly guardCalls = true,
  ) {}

  async query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<R>> {
    return runOn<R>(this.lite as unknown as PGliteTx, sql, params);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.lite.transaction(async (liteTx) => {
      const tx: Queryable = {
        query: <R>(sql: string, params: readonly unknown[] = []) =>
          runOn<R>(liteTx as unknown as PGliteTx, sql, params),
      };
      return guarded(this.guardCalls, 'PGlite', () => fn(tx));
    });
  }

  async *stream<R>(sql: string, params: readonly unknown[], batchSize: number): AsyncIterable<R[]> {
    // PGlite lives in this process: page through with LIMIT/OFFSET on a stable order.
    for (let offset = 0; ; offset += batchSize) {
      const { rows } = await this.query<R>(`${sql} LIMIT ${batchSize} OFFSET ${offset}`, params);
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < batchSize) return;
    }
  }

  close() {
    return this.lite.close();
  }
}

export async function connectPostgres(
  url: string,
  poolSize: number,
  log?: Logger,
  options: DbOptions = {},
): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    // JIT pays off for long analytical scans, not for a screen's query: when a plan's estimate is high it
    // spends 100-200 ms compiling before the first row (seen on the 1M-alert search). random_page_cost 1.1
    // is the usual value for SSD storage: at the default 4 the planner scanned the whole 1.2 GB report rollup
    // for a 180-day report instead of reading its index range (issue 18).
    options: '-c jit=off -c random_page_cost=1.1',
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        parsers[oid] ?? pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', (error) => log?.error({ err: error }, 'idle postgres connection failed'));
  await pool.query('select 1');
  return new PostgresDb(pool, options.guardCalls ?? true);
}

export async function openPglite(dir: string, options: DbOptions = {}): Promise<Db> {
  mkdirSync(dir, { recursive: true });
  const { PGlite, types } = await import('@electric-sql/pglite');
  const lite = await PGlite.create({
    dataDir: dir,
    parsers: {
      [types.DATE]: (v: string) => v,
      [types.INT8]: (v: string) => Number(v),
      [types.NUMERIC]: (v: string) => Number(v),
    },
  });
  return new PgliteDb(lite, options.guardCalls ?? true);
}

/** Postgres when DATABASE_URL is set, else the embedded PGlite under DATA_DIR/pglite. */
export async function openDatabase(
  env: Pick<Env, 'DATABASE_URL' | 'DATABASE_POOL_SIZE' | 'DATA_DIR'> & Partial<Pick<Env, 'NODE_ENV'>>,
  log?: Logger,
): Promise<Db> {
  const options: DbOptions = { guardCalls: env.NODE_ENV !== 'production' };
  if (env.DATABASE_URL) return connectPostgres(env.DATABASE_URL, env.DATABASE_POOL_SIZE, log, options);
  const dir = join(env.DATA_DIR, 'pglite');
  log?.info({ dir }, 'DATABASE_URL is unset: using embedded PGlite (one process only)');
  // Said before, not after 2 s: PGlite's work in WebAssembly holds the event loop, so no timer would fire.
  if (!existsSync(join(dir, 'PG_VERSION')))
    log?.info(`Creating the embedded database in ${dir} (first start only, several seconds)`);
  return openPglite(dir, options);
}

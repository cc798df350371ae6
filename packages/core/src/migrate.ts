import type { Db, Queryable } from './db';
import type { Logger } from './logger';

/** One versioned SQL file of a service; the list is ordered by version. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export interface ServiceMigrations {
  /** Postgres schema the service owns (one writer per table). */
  schema: string;
  migrations: readonly Migration[];
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Applies the missing migrations of a service, each in its own transaction,
 * under an advisory lock so that concurrent runners (replicas, the compose
 * migrate job) apply each version exactly once.
 */
export async function migrate(db: Db, plan: ServiceMigrations, log?: Logger): Promise<number[]> {
  if (!SCHEMA_NAME.test(plan.schema)) throw new Error(`Invalid schema name '${plan.schema}'`);
  const versions = plan.migrations.map((m) => m.version);
  if (new Set(versions).size !== versions.length || versions.some((v, i) => i > 0 && v <= versions[i - 1]!)) {
    throw new Error(`Migrations of ${plan.schema} must have strictly increasing versions`);
  }
  return db.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtext($1))`, [`migrate:${plan.schema}`]);
    await tx.query(`create schema if not exists ${plan.schema}`);
    await tx.query(
      `create table if not exists ${plan.schema}.schema_migrations (
         version integer primary key, name text not null, applied_at timestamptz not null default now())`,
    );
    const { rows } = await tx.query<{ version: number }>(
      `select version from ${plan.schema}.schema_migrations`,
    );
    const done = new Set(rows.map((r) => r.version));
    const applied: number[] = [];
    for (const m of plan.migrations) {
      if (done.has(m.version)) continue;
      await tx.query(m.sql);
      await tx.query(`insert into ${plan.schema}.schema_migrations (version, name) values ($1, $2)`, [
        m.version,
        m.name,
      ]);
      applied.push(m.version);
      log?.info({ schema: plan.schema, version: m.version, name: m.name }, 'migration applied');
    }
    return applied;
  });
}

/** runSeedOnce's markers: in the public schema, outside every service's schema. */
const SEED_TABLE = 'public.portal_seed';

/**
 * Seeds run once per service and scale; the marker lives in the public schema
 * so a second `npm start` skips seeding.
 */
export async function runSeedOnce(
  db: Db,
  service: string,
  scale: string,
  seed: () => Promise<void>,
  log?: Logger,
): Promise<boolean> {
  await db.query(
    `create table if not exists ${SEED_TABLE} (service text primary key, scale text not null, seeded_at timestamptz not null default now())`,
  );
  const { rows } = await db.query<{ scale: string }>(`select scale from ${SEED_TABLE} where service = $1`, [
    service,
  ]);
  if (rows.length) {
    log?.debug({ service, scale: rows[0]!.scale }, 'demo data already seeded');
    return false;
  }
  const started = Date.now();
  await seed();
  await db.query(
    `insert into ${SEED_TABLE} (service, scale) values ($1, $2) on conflict (service) do nothing`,
    [service, scale],
  );
  log?.info({ service, scale, ms: Date.now() - started }, 'demo data seeded');
  return true;
}

/** Forgets every seed (the demo reset): the next runSeedOnce of each service seeds again. */
export async function forgetSeeds(db: Queryable): Promise<void> {
  await db.query(`drop table if exists ${SEED_TABLE}`);
}

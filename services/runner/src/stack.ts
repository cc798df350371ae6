import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { builderMigrations, builderService, seedBuilder } from '@portal/builder-service';
import {
  BULK_JOBS,
  caseMigrations,
  CONNECTOR_JOBS,
  caseService,
  EXPORT_JOBS,
  ONBOARDING_JOBS,
  seedCases,
  UPDATER_JOBS,
  winOddsRefresh,
  WIN_ODDS_JOBS,
  reportKeyFold,
  reportKeyFoldJob,
} from '@portal/case-service';
import {
  buildServiceApp,
  listen,
  migrate,
  openDeps,
  runSeedOnce,
  slowPhase,
  type Cache,
  type Db,
  type Env,
  type Logger,
  type ServiceDefinition,
  type ServiceDeps,
  type ServiceMigrations,
  type ServiceName,
} from '@portal/core';
import {
  copySeedObjects,
  docsMigrations,
  docsService,
  REPRESENTMENT_JOBS,
  seedDocs,
  uploadLinkPurge,
  uploadLinkPurgeJob,
} from '@portal/docs-service';
import { buildGateway, buildMetricsServer } from '@portal/gateway';
import {
  JobWorker,
  livePublisher,
  mailSendJob,
  migrateJobs,
  type JobDefinition,
  type JobWorkerOptions,
  type SelfScheduledJob,
} from '@portal/jobs';
import {
  REMINDER_JOBS,
  seedUser,
  USER_EXPORT_JOBS,
  userMigrations,
  userService,
  WEBHOOK_JOBS,
} from '@portal/user-service';

export interface SeedOptions {
  /** Cases per demo tenant. */
  casesPerTenant: number;
  /** The tenant config files (the case seed reads their money settings); config/tenants by default. */
  configDir?: string;
}

interface ServiceEntry {
  definition: ServiceDefinition;
  migrations: ServiceMigrations;
  seed: (db: Db, options: SeedOptions) => Promise<void>;
}

/** Every service, in seed order (the case service owns the merchants users point at). */
export const SERVICES: Record<ServiceName, ServiceEntry> = {
  case: {
    definition: caseService,
    migrations: caseMigrations,
    seed: (db, o) => seedCases(db, { cases: o.casesPerTenant, configDir: o.configDir }),
  },
  user: { definition: userService, migrations: userMigrations, seed: (db) => seedUser(db) },
  docs: { definition: docsService, migrations: docsMigrations, seed: (db) => seedDocs(db) },
  builder: { definition: builderService, migrations: builderMigrations, seed: (db) => seedBuilder(db) },
};
const ORDER: ServiceName[] = ['case', 'user', 'docs', 'builder'];

/**
 * Every background job kind of every service (design §9): the migrate step
 * creates their queues and the worker runs their handlers. A service defines
 * its jobs with defineJob (@portal/jobs), enqueues them in its own
 * transactions, and lists them here.
 */
export const JOBS: readonly JobDefinition[] = [
  ...REPRESENTMENT_JOBS,
  uploadLinkPurgeJob,
  ...BULK_JOBS,
  ...ONBOARDING_JOBS,
  ...UPDATER_JOBS,
  ...WEBHOOK_JOBS,
  ...REMINDER_JOBS,
  ...EXPORT_JOBS,
  ...USER_EXPORT_JOBS,
  ...CONNECTOR_JOBS,
  ...WIN_ODDS_JOBS,
  reportKeyFoldJob,
  // Mail queued in a transaction (enqueueMail), sent here after it commits.
  mailSendJob,
];

/** The jobs that schedule their own next run (selfScheduledJob, in JOBS too): the migrate step starts each chain. */
const SELF_SCHEDULED: readonly SelfScheduledJob[] = [uploadLinkPurge, winOddsRefresh, reportKeyFold];

/** SEED_SCALE: none, default (3,000 cases per tenant), large (500,000 per tenant: 1,000,000 in all) or a number per tenant. */
export function parseSeedScale(scale: string): SeedOptions | null {
  if (scale === 'none') return null;
  if (scale === 'default') return { casesPerTenant: 3000 };
  if (scale === 'large') return { casesPerTenant: 500_000 };
  return { casesPerTenant: Number(scale) };
}

export async function migrateAll(db: Db, log?: Logger) {
  for (const name of ORDER) await migrate(db, SERVICES[name].migrations, log);
  await migrateJobs(db, JOBS, log);
  // Idempotent: a chain already started keeps its queued run.
  for (const job of SELF_SCHEDULED) await db.transaction((tx) => job.schedule(tx));
}

/** Seeds each service not seeded yet; `onSeed` is told before each seed that runs. */
export async function seedAll(
  db: Db,
  scale: string,
  log?: Logger,
  onSeed?: (service: ServiceName) => void,
  configDir?: string,
) {
  const parsed = parseSeedScale(scale);
  if (!parsed) return;
  const options = { ...parsed, configDir };
  for (const name of ORDER)
    await runSeedOnce(
      db,
      name,
      scale,
      () => {
        onSeed?.(name);
        return SERVICES[name].seed(db, options);
      },
      log,
    );
}

/**
 * The seed step of a process that migrates (runner `migrate`, `npm start`):
 * demo data per SEED_SCALE, then its files copied into the object store
 * (every run: a new empty bucket is filled). Services never seed at start.
 */
export async function seedDemo(db: Db, env: Env, log: Logger) {
  const options = parseSeedScale(env.SEED_SCALE);
  if (!options) return;
  // Said before it starts: the seed's SQL on PGlite holds the event loop (no timer fires).
  let announced = false;
  await seedAll(
    db,
    env.SEED_SCALE,
    log,
    () => {
      if (announced) return;
      announced = true;
      const cases = options.casesPerTenant.toLocaleString('en-US');
      log.info(`Seeding the demo data: ${cases} cases per tenant (once, for a new database)`);
    },
    env.TENANT_CONFIG_DIR,
  );
  await slowPhase(log, 'Copying the demo files into the object store', () => copySeedObjects(db, env, log));
}

/** A port free on loopback right now (the OS picks it; another process may take it before it is used: see startStack). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Stack {
  gateway: FastifyInstance;
  services: Record<ServiceName, FastifyInstance>;
  gatewayUrl: string;
  /** The gateway's internal Prometheus endpoint (`${metricsUrl}/metrics`), when enabled. */
  metricsUrl: string | undefined;
  serviceUrls: Record<ServiceName, string>;
  /** The in-process job worker, when started (`npm start`). */
  worker: JobWorker | undefined;
  close(): Promise<void>;
}

/**
 * Starts the four services on loopback (random ports unless given) and the
 * gateway in front of them, sharing one db and cache: the embedded default
 * and the full stack of the tests.
 */
export async function startStack(
  deps: ServiceDeps,
  options: {
    gatewayPort: number;
    gatewayHost: string;
    servicePorts?: Partial<Record<ServiceName, number>>;
    /** Port of the gateway's /metrics server; null disables it. Default METRICS_PORT (random in tests). */
    metricsPort?: number | null;
    /**
     * Runs a job worker in process (the embedded `npm start`), on JOBS unless
     * given; off by default, as most tests need none.
     */
    worker?: Partial<Omit<JobWorkerOptions, 'db'>>;
  },
): Promise<Stack> {
  const services = {} as Record<ServiceName, FastifyInstance>;
  const serviceUrls = {} as Record<ServiceName, string>;
  const closeAll = async () => {
    await Promise.all(Object.values(services).map((app) => app.close()));
  };
  // The worker's jobs call the services too (e.g. onboarding creates users): same addresses.
  let serviceEnv = deps.env;
  // A port found free may be taken before its service listens (another process's connection or
  // server, e.g. test files running side by side): then every service starts again on new ports.
  for (let attempt = 1; ; attempt++) {
    try {
      // Ports are chosen before any service is built so that each one is told
      // where the others are (the user service calls the case service, etc.).
      const ports = {} as Record<ServiceName, number>;
      for (const name of ORDER) ports[name] = options.servicePorts?.[name] ?? (await freePort());
      const env = {
        ...deps.env,
        CASE_SERVICE_URL: `http://127.0.0.1:${ports.case}`,
        USER_SERVICE_URL: `http://127.0.0.1:${ports.user}`,
        DOCS_SERVICE_URL: `http://127.0.0.1:${ports.docs}`,
        BUILDER_SERVICE_URL: `http://127.0.0.1:${ports.builder}`,
      };
      serviceEnv = env;
      for (const name of ORDER) {
        services[name] = await buildServiceApp(SERVICES[name].definition, { ...deps, env });
        serviceUrls[name] = await listen(services[name], ports[name], '127.0.0.1');
      }
      break;
    } catch (error) {
      await closeAll();
      const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!taken || options.servicePorts || attempt === 3) throw error;
      for (const name of ORDER) delete services[name];
    }
  }
  const gateway = await buildGateway({
    env: deps.env,
    cache: deps.cache,
    log: deps.log,
    contextSecret: deps.contextSecret,
    upstreams: serviceUrls,
  });
  const gatewayUrl = await listen(gateway, options.gatewayPort, options.gatewayHost);
  // Prometheus /metrics on its own port (METRICS_PORT; 0 disables it); tests get a random port.
  const metricsPort =
    options.metricsPort !== undefined
      ? options.metricsPort
      : deps.env.NODE_ENV === 'test'
        ? 0
        : deps.env.METRICS_PORT || null;
  const metrics = metricsPort === null ? undefined : await buildMetricsServer(gateway.gw.metrics);
  const metricsUrl = metrics ? await listen(metrics, metricsPort!, options.gatewayHost) : undefined;
  const worker = options.worker
    ? new JobWorker({
        db: deps.db,
        env: serviceEnv,
        log: deps.log,
        jobs: JOBS,
        live: livePublisher(deps.cache, deps.log),
        ...options.worker,
      })
    : undefined;
  try {
    await worker?.start();
  } catch (error) {
    await metrics?.close();
    await gateway.close();
    await closeAll();
    throw error;
  }
  return {
    gateway,
    services,
    gatewayUrl,
    serviceUrls,
    metricsUrl,
    worker,
    close: async () => {
      // Running jobs get 5 s (core's closeOnSignals allows 10 s in all); the rest are retried later.
      await worker?.stop(5);
      await metrics?.close();
      await gateway.close();
      await closeAll();
    },
  };
}

export interface EmbeddedPortal {
  deps: ServiceDeps & { log: Logger; db: Db; cache: Cache };
  stack: Stack;
  /** Closes the stack, then the cache and the database (what Ctrl-C does). */
  closers: Array<() => Promise<unknown>>;
  close(): Promise<void>;
}

/**
 * The embedded default of `npm start` (runner mode `all`): opens the database
 * (PGlite under DATA_DIR without DATABASE_URL) and the cache (in-process
 * without REDIS_URL), migrates, seeds per SEED_SCALE, and starts the four
 * services, the gateway on PORT/HOST and the job worker in this one process.
 * The embedded-stack browser test runs this same path.
 */
export async function startEmbedded(env: Env): Promise<EmbeddedPortal> {
  const deps = await openDeps(env, 'portal');
  let stack: Stack;
  try {
    await migrateAll(deps.db, deps.log);
    await seedDemo(deps.db, env, deps.log);
    stack = await slowPhase(deps.log, 'Starting the four services, the gateway and the job worker', () =>
      startStack(deps, {
        gatewayPort: env.PORT,
        gatewayHost: env.HOST,
        worker: {
          pollingIntervalSeconds: env.JOB_POLL_INTERVAL_SECONDS,
          maintenanceIntervalSeconds: env.JOB_MAINTENANCE_INTERVAL_SECONDS,
        },
      }),
    );
  } catch (error) {
    await deps.cache.close().catch(() => undefined);
    await deps.db.close().catch(() => undefined);
    throw error;
  }
  const closers = [() => stack.close(), () => deps.cache.close(), () => deps.db.close()];
  return {
    deps,
    stack,
    closers,
    close: async () => {
      for (const close of closers) await close();
    },
  };
}

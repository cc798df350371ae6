/**
 * Entry of every process. The mode is the first argument or SERVICE:
 *   case | user | docs | builder   one service (docker compose runs four of these)
 *   migrate                        migrations, then demo data per SEED_SCALE (one-shot job)
 *   reset                          `npm run demo:reset`: demo data back to its starting state (reset.ts)
 *   worker                         the background job worker (health on WORKER_PORT: /health, /health/live, /health/ready)
 *   all                            the embedded default of `npm start`: migrate, seed, services and gateway in one process
 */
import {
  buildServiceApp,
  closeOnSignals,
  createLogger,
  EnvError,
  listen,
  loadEnv,
  openDatabase,
  openDeps,
  PROCESS_NAMES,
  SERVICE_NAMES,
  type ServiceName,
} from '@portal/core';
import { JOBS, migrateAll, seedDemo, SERVICES, startEmbedded } from './stack';
import { runReset } from './reset';
import { runWorker } from './worker';

const PORT_VAR = {
  case: 'CASE_SERVICE_PORT',
  user: 'USER_SERVICE_PORT',
  docs: 'DOCS_SERVICE_PORT',
  builder: 'BUILDER_SERVICE_PORT',
} as const;

async function main() {
  const mode = process.argv[2] ?? process.env.SERVICE ?? 'all';
  if ((SERVICE_NAMES as readonly string[]).includes(mode)) return runService(mode as ServiceName);
  if (mode === 'migrate') return runMigrate();
  if (mode === 'reset') return runReset(process.argv.slice(3));
  if (mode === 'worker') return runWorker(loadEnv(['worker']), JOBS);
  if (mode === 'all') return runAll();
  throw new Error(
    `Unknown mode '${mode}': use one of ${[...SERVICE_NAMES, 'migrate', 'reset', 'worker', 'all'].join(', ')}`,
  );
}

async function runService(name: ServiceName) {
  const env = loadEnv([name]);
  const deps = await openDeps(env, `${name}-service`);
  const app = await buildServiceApp(SERVICES[name].definition, deps);
  // SIGTERM: not ready at once, still serving for DRAIN_SECONDS (the gateways' pools and Kubernetes
  // endpoints move on), then closed.
  closeOnSignals(deps.log, [() => app.close(), () => deps.cache.close(), () => deps.db.close()], {
    drains: [app.drain],
    drainSeconds: env.DRAIN_SECONDS,
  });
  await listen(app, env[PORT_VAR[name]], env.HOST);
}

/** The database alone: migrate neither calls a service nor caches (no context key, no Redis). */
async function runMigrate() {
  const env = loadEnv(['migrate']);
  const log = createLogger(env, 'migrate');
  const db = await openDatabase(env, log);
  try {
    await migrateAll(db, log);
    await seedDemo(db, env, log);
  } finally {
    await db.close();
  }
}

async function runAll() {
  const env = loadEnv(PROCESS_NAMES);
  const { deps, stack, closers } = await startEmbedded(env);
  closeOnSignals(deps.log, closers, {
    drains: [stack.gateway.drain, ...Object.values(stack.services).map((app) => app.drain)],
    drainSeconds: env.DRAIN_SECONDS,
  });
  deps.log.info(
    `Portal ready on http://localhost:${env.PORT} (demo tenants: acme.localhost, northbank.localhost)`,
  );
}

main().catch((error: unknown) => {
  // A bad configuration names the variable; anything else prints its stack.
  console.error(error instanceof EnvError ? error.message : error);
  process.exit(1);
});

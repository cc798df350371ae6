import { createServer, type ServerResponse, type Server } from 'node:http';
import closeWithGrace from 'close-with-grace';
import {
  SERVICE_HEALTH_PATH,
  SERVICE_LIVE_PATH,
  SERVICE_READY_PATH,
  type HealthResponse,
} from '@portal/contracts';
import {
  createCache,
  createLogger,
  liveAnswer,
  openDatabase,
  postgresCheck,
  READINESS_CACHE_MS,
  readinessAnswer,
  reusedFor,
  type Db,
  type Env,
  type ProbeAnswer,
} from '@portal/core';
import { JobWorker, livePublisher, type JobDefinition, type JobWorkerOptions } from '@portal/jobs';

function send(res: ServerResponse, { statusCode, body }: ProbeAnswer) {
  res.writeHead(statusCode, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * The worker process's health routes (HealthResponse, as the services answer):
 * - GET /health: 200 when Postgres answers and the worker is taking jobs, 503 otherwise;
 * - GET /health/live: 200 while the process answers (liveness: no dependency is asked);
 * - GET /health/ready: /health's checks, bounded and reused for a second (readiness); the worker
 *   leaves 'started' as soon as it stops on SIGTERM.
 */
export function createWorkerHealthServer(db: Db, worker: JobWorker): Server {
  const readyChecks = reusedFor(READINESS_CACHE_MS, async () => ({ postgres: await postgresCheck(db) }));
  const ready = async (): Promise<ProbeAnswer> => {
    const checks = { ...(await readyChecks()), worker: worker.state === 'started' ? 'up' : 'down' } as const;
    return readinessAnswer('worker', checks, ['postgres', 'worker'], false);
  };
  return createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === SERVICE_LIVE_PATH) return send(res, liveAnswer('worker'));
    if (req.method === 'GET' && path === SERVICE_READY_PATH) return void ready().then((a) => send(res, a));
    if (req.method !== 'GET' || path !== SERVICE_HEALTH_PATH) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'Not found.' }));
      return;
    }
    void db
      .query('select 1')
      .then(
        () => 'up' as const,
        () => 'down' as const,
      )
      .then((postgres) => {
        const running = worker.state === 'started' ? 'up' : 'down';
        const ok = postgres === 'up' && running === 'up';
        const body: HealthResponse = {
          status: ok ? 'ok' : 'down',
          service: 'worker',
          checks: { postgres, worker: running },
        };
        send(res, { statusCode: ok ? 200 : 503, body });
      });
  });
}

/**
 * Runner mode `worker`: the job worker with its health route, until
 * SIGTERM/SIGINT. `jobs` is the runner's JOBS (tests pass their own, and
 * shorter liveness timings). Resolves once the worker is taking jobs, with
 * the health port.
 */
export async function runWorker(
  env: Env,
  jobs: readonly JobDefinition[],
  liveness: Pick<JobWorkerOptions, 'heartbeatSeconds' | 'deadAfterSeconds'> = {},
): Promise<{ port: number }> {
  const log = createLogger(env, 'worker');
  const db = await openDatabase(env, log);
  // Live updates go out through Redis pub/sub (issue 21); without REDIS_URL nobody could receive them.
  const cache = createCache(env, log);
  const worker = new JobWorker({
    db,
    env,
    log,
    jobs,
    live: livePublisher(cache, log),
    pollingIntervalSeconds: env.JOB_POLL_INTERVAL_SECONDS,
    maintenanceIntervalSeconds: env.JOB_MAINTENANCE_INTERVAL_SECONDS,
    ...liveness,
  });
  const health = createWorkerHealthServer(db, worker);
  await new Promise<void>((resolve, reject) => {
    health.once('error', reject);
    health.listen(env.WORKER_PORT, env.HOST, () => resolve());
  });
  // Stop taking jobs, let running ones finish within the grace period, then close.
  const grace = env.WORKER_SHUTDOWN_GRACE_SECONDS;
  closeWithGrace({ delay: (grace + 10) * 1000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info({ signal, graceSeconds: grace }, 'shutting down');
    await worker.stop(grace).catch((error: unknown) => log.error({ err: error }, 'worker stop failed'));
    await new Promise((resolve) => health.close(resolve));
    await db.close().catch((error: unknown) => log.error({ err: error }, 'database close failed'));
    await cache.close();
  });
  await worker.start();
  const address = health.address();
  const port = typeof address === 'object' && address ? address.port : env.WORKER_PORT;
  log.info({ port, jobs: jobs.map((j) => j.name) }, 'worker ready');
  return { port };
}

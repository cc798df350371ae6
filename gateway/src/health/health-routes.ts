import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import {
  liveAnswer,
  READINESS_CACHE_MS,
  READINESS_TIMEOUT_MS,
  readinessAnswer,
  redisCheck,
  reusedFor,
  SERVICE_NAMES,
  within,
  type Check as ProbeCheck,
  type ProbeAnswer,
  type ServiceName,
} from '@portal/core';
import {
  GATEWAY_HEALTH_PATH,
  GATEWAY_LIVE_PATH,
  GATEWAY_READY_PATH,
  SERVICE_READY_PATH,
} from '@portal/contracts';
import type { GatewayDeps } from '../core';
import type { Pools } from '../upstreams/pools';

type Check = 'up' | 'down' | 'off';

/** An upstream's own /health through the gateway's pool (the same connections the proxy uses). */
async function upstreamHealth(pools: Pools, name: ServiceName): Promise<{ up: boolean; postgres: Check }> {
  try {
    const answer = await pools[name].request({
      method: 'GET',
      path: '/health',
      headersTimeout: 1500,
      bodyTimeout: 1500,
    });
    const body = (await answer.body.json()) as { checks?: { postgres?: Check } };
    return { up: answer.statusCode === 200, postgres: body.checks?.postgres ?? 'down' };
  } catch {
    return { up: false, postgres: 'down' };
  }
}

/** GET /api/health: `{status, checks}`; 200 when everything is up, 503 naming what is down (design §4). */
export const healthRoutes: FastifyPluginAsync<{ deps: GatewayDeps; pools: Pools }> = async (
  app,
  { deps, pools },
) => {
  app.get(GATEWAY_HEALTH_PATH, async (_request, reply) => {
    const [redis, ...upstreams] = await Promise.all([
      deps.cache.kind === 'memory'
        ? Promise.resolve<Check>('off')
        : deps.cache.ping().then((ok): Check => (ok ? 'up' : 'down')),
      ...SERVICE_NAMES.map((name) => upstreamHealth(pools, name)),
    ]);
    const checks: Record<'redis' | 'postgres' | ServiceName, Check> = {
      redis,
      // Postgres is reached through the services; it is up when any of them reaches it.
      postgres: upstreams.some((u) => u.postgres === 'up') ? 'up' : 'down',
      case: 'down',
      user: 'down',
      docs: 'down',
      builder: 'down',
    };
    SERVICE_NAMES.forEach((name, i) => (checks[name] = upstreams[i]!.up ? 'up' : 'down'));
    const down = Object.entries(checks)
      .filter(([, c]) => c === 'down')
      .map(([k]) => k);
    reply.header('cache-control', 'no-store');
    return reply
      .status(down.length ? 503 : 200)
      .send({ status: down.length ? 'down' : 'ok', checks, ...(down.length ? { down } : {}) });
  });
};

/** An upstream's readiness through the gateway's pool (the connections the proxy uses), bounded. */
function upstreamReady(pools: Pools, name: ServiceName): Promise<ProbeCheck> {
  const ms = READINESS_TIMEOUT_MS;
  const answer = pools[name]
    .request({
      method: 'GET',
      path: SERVICE_READY_PATH,
      headersTimeout: ms,
      bodyTimeout: ms,
      signal: AbortSignal.timeout(ms),
    })
    .then(async (a): Promise<ProbeCheck> => {
      await a.body.dump();
      return a.statusCode === 200 ? 'up' : 'down';
    });
  return within(answer, ms, 'down');
}

const send = (reply: FastifyReply, { statusCode, body }: ProbeAnswer) =>
  reply.status(statusCode).header('cache-control', 'no-store').send(body);

/**
 * The probes (design §12): GET /api/health/live (200 while the process answers, whatever its
 * dependencies do) and GET /api/health/ready: 503 naming what is down when Redis is configured and
 * does not answer, when an upstream is not ready, or while draining on SIGTERM (app.drain); else 200.
 * One round of checks (each at most READINESS_TIMEOUT_MS) answers every probe for READINESS_CACHE_MS.
 *
 * Registered before the request pipeline and answered in an onRequest hook ahead of it: a probe
 * needs no tenant (a kubelet sends the pod's address as Host), token, policy, rate limit or audit.
 */
export function registerProbes(app: FastifyInstance, { deps, pools }: { deps: GatewayDeps; pools: Pools }) {
  const checks = reusedFor(READINESS_CACHE_MS, async () => {
    const [redis, ...upstreams] = await Promise.all([
      redisCheck(deps.cache),
      ...SERVICE_NAMES.map((name) => upstreamReady(pools, name)),
    ]);
    const all: Record<string, ProbeCheck> = { redis };
    SERVICE_NAMES.forEach((name, i) => (all[name] = upstreams[i]!));
    return all;
  });
  const needed = ['redis', ...SERVICE_NAMES];
  const probes = new Map<string, () => Promise<ProbeAnswer>>([
    [GATEWAY_LIVE_PATH, async () => liveAnswer('gateway')],
    [
      GATEWAY_READY_PATH,
      async () => {
        // A draining gateway answers at once: it is going away whatever its dependencies say.
        const found = app.drain.draining ? {} : await checks();
        return readinessAnswer('gateway', found, needed, app.drain.draining);
      },
    ],
  ]);
  for (const [path, probe] of probes) app.get(path, async (_request, reply) => send(reply, await probe()));
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.routeOptions.url;
    const probe = url === undefined ? undefined : probes.get(url);
    if (!probe) return done();
    request.routeLabel = url!;
    // Answered here: the later onRequest hooks (the pipeline) and the handler do not run.
    probe().then(
      (answer) => send(reply, answer),
      (error: unknown) => reply.send(error),
    );
  });
}

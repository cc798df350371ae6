import type { FastifyPluginAsync } from 'fastify';
import { SERVICE_NAMES, type ServiceName } from '@portal/core';
import { GATEWAY_HEALTH_PATH } from '@portal/contracts';
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

import type { FastifyPluginAsync } from 'fastify';
import { SERVICE_NAMES, type ServiceName } from '@portal/core';
import type { GatewayDeps } from '../app';

type Check = 'up' | 'down' | 'off';

async function upstreamHealth(url: string): Promise<{ up: boolean; postgres: Check }> {
  try {
    const response = await fetch(new URL('/health', url), { signal: AbortSignal.timeout(1500) });
    const body = (await response.json()) as { checks?: { postgres?: Check } };
    return { up: response.ok, postgres: body.checks?.postgres ?? 'down' };
  } catch {
    return { up: false, postgres: 'down' };
  }
}

/** GET /api/health: `{status, checks}`; 200 when everything is up, 503 naming what is down (design §4). */
export const healthRoutes: FastifyPluginAsync<{ deps: GatewayDeps }> = async (app, { deps }) => {
  app.get('/api/health', async (_request, reply) => {
    const [redis, ...upstreams] = await Promise.all([
      deps.cache.kind === 'memory' ? Promise.resolve<Check>('off') : deps.cache.ping().then((ok): Check => (ok ? 'up' : 'down')),
      ...SERVICE_NAMES.map((name) => upstreamHealth(deps.upstreams[name])),
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
    return reply.status(down.length ? 503 : 200).send({ status: down.length ? 'down' : 'ok', checks, ...(down.length ? { down } : {}) });
  });
};

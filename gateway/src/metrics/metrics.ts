import Fastify, { type FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one gateway (its own registry, so several gateways in
 * one process, as in tests, do not collide). Labels stay bounded: the route
 * label is the policy rule or a fixed name, never a raw path.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'gateway_requests_total',
    help: 'Requests by route, tenant, method and status',
    labelNames: ['route', 'tenant', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly duration = new Histogram({
    name: 'gateway_request_duration_seconds',
    help: 'Request latency by route and tenant',
    labelNames: ['route', 'tenant'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  readonly cache = new Counter({
    name: 'gateway_cache_requests_total',
    help: 'Cache lookups by cache and result (HIT/MISS)',
    labelNames: ['cache', 'result'] as const,
    registers: [this.registry],
  });
  readonly upstreamErrors = new Counter({
    name: 'gateway_upstream_errors_total',
    help: 'Upstream failures by upstream and answered status',
    labelNames: ['upstream', 'status'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'gateway_rate_limited_total',
    help: 'Requests answered 429 by limiter',
    labelNames: ['limiter', 'tenant'] as const,
    registers: [this.registry],
  });
  readonly failOpen = new Counter({
    name: 'gateway_redis_fail_open_total',
    help: 'Requests served without Redis (cache skipped or limiter open)',
    labelNames: ['what'] as const,
    registers: [this.registry],
  });

  constructor(withProcessMetrics = true) {
    if (withProcessMetrics) collectDefaultMetrics({ register: this.registry, prefix: 'gateway_' });
  }
}

/** /metrics on its own internal port (not reachable through the public one). */
export async function buildMetricsServer(metrics: GatewayMetrics): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  app.get('/metrics', async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  return app;
}

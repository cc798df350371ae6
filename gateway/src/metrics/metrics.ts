import Fastify, { type FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one gateway (its own registry, so several gateways in
 * one process, as in tests, do not collide). Labels stay bounded: the route
 * label is the policy rule or a fixed name, never a raw path.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  /**
   * Requests counted per label set in a plain map (one string key per request instead of prom-client's
   * label hashing); written into the counter when the registry is scraped.
   */
  private readonly requestCounts = new Map<
    string,
    { labels: { route: string; tenant: string; method: string; status: string }; n: number }
  >();
  readonly requests = (() => {
    const counts = this.requestCounts;
    return new Counter({
      name: 'gateway_requests_total',
      help: 'Requests by route, tenant, method and status',
      labelNames: ['route', 'tenant', 'method', 'status'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { labels, n } of counts.values()) this.inc(labels, n);
      },
    });
  })();
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
  /** Audited requests answered before their entry was stored (design §11: durability degraded). */
  readonly auditFallback = new Counter({
    name: 'gateway_audit_fallback_total',
    help: 'Audited requests answered with their entry kept in memory only, by reason',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  /** One answered request (the pipeline's onResponse hook); elapsed in ms. */
  observe(route: string, tenant: string, method: string, status: number, elapsedMs: number) {
    const key = `${route}\u0000${tenant}\u0000${method}\u0000${status}`;
    const entry = this.requestCounts.get(key);
    if (entry) entry.n++;
    else this.requestCounts.set(key, { labels: { route, tenant, method, status: String(status) }, n: 1 });
    this.duration.observe({ route, tenant }, elapsedMs / 1000);
  }

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

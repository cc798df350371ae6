import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { GuardedCache } from '../cache/guarded-cache';
import { errors } from '../errors';
import { BatchedRedisStore } from './batched-store';
import type { GatewayMetrics } from '../metrics/metrics';

type LimiterFn = (req: FastifyRequest) => Promise<{
  isAllowed: boolean;
  isExceeded?: boolean;
  max?: number;
  remaining?: number;
  ttlInSeconds?: number;
}>;

export type LimiterName = 'user' | 'auth-ip' | 'auth-username' | 'page-ip';

const WINDOW_MS = 60_000;

/**
 * Rate limits shared through Redis (design §4 step 7): per tenant + user on
 * every signed-in call, per IP and per username on the public auth calls, per
 * IP on page loads. @fastify/rate-limit computes keys, limits and windows; its
 * store (BatchedRedisStore) counts in process and syncs to Redis in batches,
 * so Redis being slow or away never delays or fails a request: a failed sync
 * is logged (throttled), counted as fail-open and trips the cache breaker.
 */
export class RateLimits {
  private readonly limiters = new Map<LimiterName, LimiterFn>();

  private constructor(private readonly metrics: GatewayMetrics) {}

  static async register(
    app: FastifyInstance,
    guard: GuardedCache,
    metrics: GatewayMetrics,
  ): Promise<RateLimits> {
    // Counted in process, synced to Redis in batches (BatchedRedisStore): no Redis round trip per request.
    const redis = guard.cache.redis;
    const store = new BatchedRedisStore(
      redis,
      'gw:rl:',
      (error) => {
        metrics.failOpen.inc({ what: 'rate-limit' });
        guard.trip(`rate limit sync failed: ${error.message}`);
      },
      () => guard.usable,
    );
    app.addHook('onClose', async () => store.close());
    await app.register(rateLimit, {
      global: false,
      // @fastify/rate-limit constructs the store itself from this class.
      store: function Store() {
        return store;
      } as never,
      skipOnError: false,
    });
    const limits = new RateLimits(metrics);
    const create = (app as unknown as { createRateLimit: (o: object) => LimiterFn }).createRateLimit;
    const tenantOf = (req: FastifyRequest) => req.tenant!.config;
    limits.limiters.set(
      'user',
      create({
        timeWindow: WINDOW_MS,
        max: (req: FastifyRequest) => tenantOf(req).rate_limits.user_per_minute,
        keyGenerator: (req: FastifyRequest) => `u:${tenantOf(req).id}:${req.call?.actor?.id ?? 0}`,
      }),
    );
    limits.limiters.set(
      'auth-ip',
      create({
        timeWindow: WINDOW_MS,
        max: (req: FastifyRequest) => tenantOf(req).rate_limits.auth_ip_per_minute,
        keyGenerator: (req: FastifyRequest) => `aip:${tenantOf(req).id}:${req.ip}`,
      }),
    );
    limits.limiters.set(
      'auth-username',
      create({
        timeWindow: WINDOW_MS,
        max: (req: FastifyRequest) => tenantOf(req).rate_limits.auth_username_per_minute,
        keyGenerator: (req: FastifyRequest) => `aun:${tenantOf(req).id}:${usernameOf(req) ?? ''}`,
      }),
    );
    limits.limiters.set(
      'page-ip',
      create({ timeWindow: WINDOW_MS, max: 600, keyGenerator: (req: FastifyRequest) => `pip:${req.ip}` }),
    );
    return limits;
  }

  /** Throws 429 (with Retry-After) when the limit is exceeded; fails open when Redis does. */
  async check(name: LimiterName, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let result;
    try {
      result = await this.limiters.get(name)!(request);
    } catch (error) {
      // Not expected (the store answers from memory); never fail a request over a limiter.
      request.log.warn({ err: error }, 'rate limiter failed; request let through');
      this.metrics.failOpen.inc({ what: 'rate-limit' });
      return;
    }
    if (result.isAllowed) return;
    if (result.isExceeded) {
      this.metrics.rateLimited.inc({ limiter: name, tenant: request.tenant?.config.id ?? '' });
      reply.header('retry-after', String(Math.max(1, result.ttlInSeconds ?? 60)));
      reply.header('x-ratelimit-limit', String(result.max));
      reply.header('x-ratelimit-remaining', '0');
      throw errors.rateLimited();
    }
  }
}

/** The username of an auth call body (signin, forgot, forgot/confirm), lower-cased; undefined when absent. */
export function usernameOf(request: FastifyRequest): string | undefined {
  const body = request.body as { username?: unknown } | undefined;
  return body && typeof body === 'object' && typeof body.username === 'string'
    ? body.username.trim().toLowerCase().slice(0, 128)
    : undefined;
}

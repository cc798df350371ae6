import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { API_KEY_RATE_PER_MINUTE, REFRESH_COOKIE_NAMES, REFRESH_FAMILY } from '@portal/contracts';
import type { GuardedCache } from '../cache/guarded-cache';
import { errors } from '../errors';
import { BatchedRedisStore } from './batched-store';
import type { GatewayMetrics } from '../metrics/metrics';

interface LimiterResult {
  exceeded: boolean;
  max: number;
  /** Seconds until the window ends (Retry-After). */
  ttlInSeconds: number;
}
type LimiterFn = (req: FastifyRequest) => LimiterResult;

type LimiterName =
  'user' | 'key' | 'auth-ip' | 'auth-username' | 'page-ip' | 'session' | 'session-ip' | 'link-ip';

const WINDOW_MS = 60_000;

/**
 * Refresh and sign-out (issue 11.2) are limited per session, not in the
 * sign-in per-IP bucket (which signed out a whole office behind one NAT
 * address after a few dozen reloads): SESSION_PER_MINUTE per refresh family
 * (read from the cookie value `<familyId>.<secret>`, no lookup), plus a much
 * higher per-IP ceiling against abuse (forged family handles, cookie floods).
 */
export const SESSION_LIMITS = { perSession: 120, perIp: 1200 } as const;
/**
 * Sign-in failures per username across addresses (issue 27.A), the last
 * resort against guessing from many addresses: past `failures` within the
 * window, an address that itself failed for that username in the window is
 * refused at once; an address without such failures (the owner, elsewhere)
 * still reaches the password check. Failures, not attempts, are counted, so
 * the owner's own sign-ins never fill it.
 */
const USERNAME_FAILURE_CEILING = { failures: 50, windowMs: 15 * 60_000 } as const;
/** Signed upload and download links: the signature is the authority; a per-IP ceiling against floods. */
const SIGNED_LINK_PER_IP = 600;

/**
 * Rate limits shared through Redis (design §4 step 7): per tenant + user on
 * every signed-in call, per IP and per username on the public auth calls, per
 * IP on page loads: fixed windows per key, counted by a store (BatchedRedisStore)
 * that counts in process and syncs to Redis in batches,
 * so Redis being slow or away never delays or fails a request: a failed sync
 * is logged (throttled), counted as fail-open and trips the cache breaker.
 */
export class RateLimits {
  private readonly limiters = new Map<LimiterName, LimiterFn>();

  private constructor(
    private readonly metrics: GatewayMetrics,
    private readonly store: BatchedRedisStore,
  ) {}

  static register(app: FastifyInstance, guard: GuardedCache, metrics: GatewayMetrics): RateLimits {
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
    const limits = new RateLimits(metrics, store);
    /**
     * A fixed-window limiter over the store (exceeded when current > max). The store answers from
     * memory within incr(), so a check is synchronous: no promise, no tick per request (the
     * @fastify/rate-limit plugin cost three awaits per request: tests/bench/gateway-bench.ts).
     */
    const create =
      (o: {
        timeWindow: number;
        max: number | ((req: FastifyRequest) => number);
        keyGenerator: (req: FastifyRequest) => string;
      }): LimiterFn =>
      (req) => {
        const key = o.keyGenerator(req);
        const max = typeof o.max === 'number' ? o.max : o.max(req);
        let answer: { current: number; ttl: number } | undefined;
        let failure: Error | null = null;
        store.incr(
          key,
          (err, res) => {
            failure = err;
            answer = res;
          },
          o.timeWindow,
        );
        if (failure) throw failure;
        if (!answer) throw new Error('rate-limit store answered asynchronously');
        return { exceeded: answer.current > max, max, ttlInSeconds: Math.ceil(answer.ttl / 1000) };
      };
    const tenantOf = (req: FastifyRequest) => req.tenant!.config;
    limits.limiters.set(
      'user',
      create({
        timeWindow: WINDOW_MS,
        max: (req: FastifyRequest) => tenantOf(req).rate_limits.user_per_minute,
        keyGenerator: (req: FastifyRequest) => `u:${tenantOf(req).id}:${req.call?.actor?.id ?? 0}`,
      }),
    );
    // A merchant API key (issue 35.1): its own bucket, the key id as subject (not its creator's).
    limits.limiters.set(
      'key',
      create({
        timeWindow: WINDOW_MS,
        max: API_KEY_RATE_PER_MINUTE,
        keyGenerator: (req: FastifyRequest) => `k:${tenantOf(req).id}:${req.call?.apiKey?.id ?? ''}`,
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
    // Per username and address: someone else's guesses never close the owner's door (issue 27.A).
    limits.limiters.set(
      'auth-username',
      create({
        timeWindow: WINDOW_MS,
        max: (req: FastifyRequest) => tenantOf(req).rate_limits.auth_username_per_minute,
        keyGenerator: (req: FastifyRequest) => `aun:${tenantOf(req).id}:${usernameOf(req) ?? ''}:${req.ip}`,
      }),
    );
    limits.limiters.set(
      'session',
      create({
        timeWindow: WINDOW_MS,
        max: SESSION_LIMITS.perSession,
        keyGenerator: (req: FastifyRequest) => `rs:${tenantOf(req).id}:${sessionHandleOf(req) ?? ''}`,
      }),
    );
    limits.limiters.set(
      'session-ip',
      create({
        timeWindow: WINDOW_MS,
        max: SESSION_LIMITS.perIp,
        keyGenerator: (req: FastifyRequest) => `rsip:${tenantOf(req).id}:${req.ip}`,
      }),
    );
    limits.limiters.set(
      'link-ip',
      create({
        timeWindow: WINDOW_MS,
        max: SIGNED_LINK_PER_IP,
        keyGenerator: (req: FastifyRequest) => `lip:${tenantOf(req).id}:${req.ip}`,
      }),
    );
    limits.limiters.set(
      'page-ip',
      create({ timeWindow: WINDOW_MS, max: 600, keyGenerator: (req: FastifyRequest) => `pip:${req.ip}` }),
    );
    return limits;
  }

  /**
   * The limits of a public call, by its policy row: sign-in and the other
   * identity calls per IP (and per username, once the body is parsed);
   * session calls per session plus the per-IP ceiling (without a refresh
   * cookie, a signed-out start page, only the ceiling); signed links per IP.
   */
  checkPublic(request: FastifyRequest, reply: FastifyReply): void {
    const kind = request.call?.rule.limit;
    if (kind === 'session') {
      if (sessionHandleOf(request) !== undefined) this.check('session', request, reply);
      return this.check('session-ip', request, reply);
    }
    return this.check(kind === 'signed-link' ? 'link-ip' : 'auth-ip', request, reply);
  }

  /**
   * An identity call naming a username (signin, forgot, forgot/confirm): per
   * username and address, then the per-username failure ceiling, which only
   * refuses addresses that failed for that username themselves.
   */
  checkUsername(request: FastifyRequest, reply: FastifyReply): void {
    this.check('auth-username', request, reply);
    const keys = failureKeys(request);
    if (!keys) return;
    const { windowMs, failures } = USERNAME_FAILURE_CEILING;
    if (this.store.peek(keys.username, windowMs).current <= failures) return;
    const own = this.store.peek(keys.address, windowMs);
    if (own.current === 0) return;
    this.refuse('auth-username-failures', request, reply, failures, own.ttl / 1000);
  }

  /** Counts a refused credential (401) of an identity call naming a username. */
  recordUsernameFailure(request: FastifyRequest, statusCode: number): void {
    if (statusCode !== 401) return;
    const keys = failureKeys(request);
    if (!keys) return;
    const noop = () => undefined;
    this.store.incr(keys.username, noop, USERNAME_FAILURE_CEILING.windowMs);
    this.store.incr(keys.address, noop, USERNAME_FAILURE_CEILING.windowMs);
  }

  /** Throws 429 (with Retry-After) when the limit is exceeded; fails open when Redis does. Synchronous. */
  check(name: LimiterName, request: FastifyRequest, reply: FastifyReply): void {
    let result;
    try {
      result = this.limiters.get(name)!(request);
    } catch (error) {
      // Not expected (the store answers from memory); never fail a request over a limiter.
      request.log.warn({ err: error }, 'rate limiter failed; request let through');
      this.metrics.failOpen.inc({ what: 'rate-limit' });
      return;
    }
    if (result.exceeded) this.refuse(name, request, reply, result.max, result.ttlInSeconds);
  }

  private refuse(
    limiter: string,
    request: FastifyRequest,
    reply: FastifyReply,
    max: number,
    ttlSeconds: number,
  ): never {
    this.metrics.rateLimited.inc({ limiter, tenant: request.tenant?.config.id ?? '' });
    reply.header('retry-after', String(Math.max(1, Math.ceil(ttlSeconds))));
    reply.header('x-ratelimit-limit', String(max));
    reply.header('x-ratelimit-remaining', '0');
    throw errors.rateLimited();
  }
}

/** The failure counters of an identity call: its username's, and its username's from this address. */
function failureKeys(request: FastifyRequest): { username: string; address: string } | undefined {
  const username = usernameOf(request);
  const tenant = request.tenant?.config.id;
  if (username === undefined || !tenant) return undefined;
  const key = `aunf:${tenant}:${username}`;
  return { username: key, address: `${key}:${request.ip}` };
}

/** The username of an auth call body (signin, forgot, forgot/confirm), lower-cased; undefined when absent. */
export function usernameOf(request: FastifyRequest): string | undefined {
  const body = request.body as { username?: unknown } | undefined;
  if (!body || typeof body !== 'object' || typeof body.username !== 'string') return undefined;
  // NUL and control characters are no username (the user service answers 400): no bucket of their own.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(body.username)) return undefined;
  return body.username.trim().toLowerCase().slice(0, 128);
}

/**
 * The session a refresh/sign-out call belongs to: the family handle of the
 * refresh cookie (`<familyId>.<secret>`), else (a token of before the handle)
 * a hash of the token itself; undefined without a refresh cookie. A forged
 * handle only moves the caller into another bucket; the per-IP ceiling still
 * holds, and a person whose handle is abused gets 429 (the web app waits and
 * retries), never a sign-out.
 */
function sessionHandleOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string' || header.length > 16384) return undefined;
  for (const name of REFRESH_COOKIE_NAMES) {
    const value = cookieValue(header, name);
    if (!value) continue;
    const family = REFRESH_FAMILY.exec(value)?.[1];
    if (family) return `f:${family}`;
    return `t:${createHash('sha256').update(value).digest('base64url').slice(0, 22)}`;
  }
  return undefined;
}

/** One cookie's (URL-decoded) value from a Cookie header. */
function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

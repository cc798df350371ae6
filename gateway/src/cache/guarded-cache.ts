import type { Cache, Logger } from '@portal/core';

/**
 * The shared cache as the request path uses it. A refused Redis (killed)
 * fails at once because the offline queue is off; a hung one (SIGSTOP) costs
 * the 200 ms command timeout, so after one slow failure the breaker skips
 * Redis for `openMs` and requests go straight to the source.
 */
export class GuardedCache {
  private openUntil = 0;
  private lastLog = 0;

  constructor(
    readonly cache: Cache,
    private readonly log: Logger,
    private readonly slowMs = 150,
    private readonly openMs = 2000,
  ) {}

  /** False while Redis is known to be unusable: skip it (cache miss, limiter open). */
  get usable(): boolean {
    if (this.cache.kind === 'memory') return true;
    const status = this.cache.redis?.status;
    if (status !== 'ready') return false;
    return Date.now() >= this.openUntil;
  }

  /** Records a failed or slow Redis call. */
  trip(reason: string) {
    this.openUntil = Date.now() + this.openMs;
    const now = Date.now();
    if (now - this.lastLog >= 5000) {
      this.lastLog = now;
      this.log.warn({ reason }, 'Redis unusable: serving without cache and with rate limits open');
    }
  }

  async get(key: string): Promise<string | null> {
    if (!this.usable) return null;
    const started = Date.now();
    const value = await this.cache.get(key);
    if (value === null && Date.now() - started >= this.slowMs) this.trip('slow read');
    return value;
  }

  async set(key: string, value: string, ttlSeconds: number) {
    if (!this.usable) return;
    const started = Date.now();
    await this.cache.set(key, value, ttlSeconds);
    if (Date.now() - started >= this.slowMs) this.trip('slow write');
  }

  async del(...keys: string[]) {
    // Invalidation is tried even with the breaker open: a stale entry outliving Redis's return is worse than a slow call.
    await this.cache.del(...keys);
  }

  async delPrefix(prefix: string) {
    await this.cache.delPrefix(prefix);
  }
}

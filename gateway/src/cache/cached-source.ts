import { LRUCache } from 'lru-cache';
import type { GuardedCache } from './guarded-cache';
import { SingleFlight } from './single-flight';

export type CacheResult = 'HIT' | 'MISS';

export interface CachedSourceOptions<T> {
  /** Metric/log name: profile, lookup, config. */
  name: string;
  ttlSeconds: number;
  /** A short in-process layer in front of Redis (ms; 0 disables it). Invalidations clear it on every instance. */
  localTtlMs: number;
  localMax?: number;
  /** Whether a loaded value may be stored (e.g. only 200 answers). */
  cacheable?: (value: T) => boolean;
  onResult?: (name: string, result: CacheResult) => void;
}

/**
 * Read-through cache: in-process LRU (short), then Redis (TTL), then the
 * loader, single-flight per key. An invalidation bumps a generation so a load
 * that started before it does not write its now stale value back.
 */
export class CachedSource<T> {
  private readonly local: LRUCache<string, { value: T; until: number }>;
  private readonly flight = new SingleFlight<{ value: T; result: CacheResult }>();
  /** Bumped by every invalidation: a load that saw another epoch is not stored (conservative, simple). */
  private epoch = 0;

  constructor(
    private readonly store: GuardedCache,
    private readonly options: CachedSourceOptions<T>,
  ) {
    this.local = new LRUCache({ max: options.localMax ?? 10_000 });
  }

  /** The in-process copy when fresh (counted as a HIT), synchronously; undefined otherwise (then get()). */
  peek(key: string): { value: T; result: CacheResult } | undefined {
    if (this.options.localTtlMs <= 0) return undefined;
    const hit = this.local.get(key);
    if (hit && hit.until > Date.now()) {
      this.options.onResult?.(this.options.name, 'HIT');
      return { value: hit.value, result: 'HIT' };
    }
    return undefined;
  }

  async get(key: string, load: () => Promise<T>): Promise<{ value: T; result: CacheResult }> {
    const local = this.peek(key);
    if (local) return local;
    const out = await this.flight.run(key, async () => {
      const gen = this.epoch;
      const cached = await this.store.get(key);
      if (cached !== null) {
        try {
          const value = JSON.parse(cached) as T;
          this.remember(key, value, gen);
          return { value, result: 'HIT' as const };
        } catch {
          // A corrupt entry is a miss.
        }
      }
      const value = await load();
      if (this.options.cacheable?.(value) ?? true) {
        if (gen === this.epoch) {
          await this.store.set(key, JSON.stringify(value), this.options.ttlSeconds);
          this.remember(key, value, gen);
        }
      }
      return { value, result: 'MISS' as const };
    });
    this.options.onResult?.(this.options.name, out.result);
    return out;
  }

  private remember(key: string, value: T, gen: number) {
    if (this.options.localTtlMs > 0 && gen === this.epoch) {
      this.local.set(key, { value, until: Date.now() + this.options.localTtlMs });
    }
  }

  /**
   * Forgets one key here and in Redis. The local layer is cleared before and
   * after the Redis delete: a read that fetched the old Redis value meanwhile
   * must not stay in process.
   */
  async invalidate(key: string) {
    this.epoch++;
    this.local.delete(key);
    await this.store.del(key);
    this.epoch++;
    this.local.delete(key);
  }

  /** Forgets every key with a prefix here and in Redis (same before/after clearing). */
  async invalidatePrefix(prefix: string) {
    this.epoch++;
    this.forgetLocalPrefix(prefix);
    await this.store.delPrefix(prefix);
    this.epoch++;
    this.forgetLocalPrefix(prefix);
  }

  private forgetLocalPrefix(prefix: string) {
    for (const key of [...this.local.keys()]) if (key.startsWith(prefix)) this.local.delete(key);
  }

  /** Drops the in-process layer (e.g. after Redis comes back: invalidations may have been missed). */
  clearLocal() {
    this.local.clear();
  }
}

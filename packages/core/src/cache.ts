import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { Env } from './env';
import type { Logger } from './logger';

/**
 * Every Redis key the portal writes starts with REDIS_KEY_PREFIX and then this: the gateway's caches,
 * rate limits and live-stream slots, and revoked sessions. A demo reset deletes these keys and no
 * others, so a Redis shared with something else (an empty REDIS_KEY_PREFIX) keeps that data.
 */
export const PORTAL_KEY_NAMESPACE = 'gw:';

/**
 * Cache and pub/sub behind one adapter: Redis when REDIS_URL is set, else an
 * in-process map (the embedded single-process default). Reads that fail
 * answer a miss and writes that fail are dropped: callers keep serving
 * without the cache.
 */
export interface Cache {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  del(...keys: string[]): Promise<void>;
  /** Deletes every key starting with the given prefix (after the key prefix). */
  delPrefix(prefix: string): Promise<void>;
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): Promise<void>;
  ping(): Promise<boolean>;
  /**
   * Waits (bounded) for the first connection: with the offline queue off,
   * commands sent before it fail. False when Redis did not answer in time.
   */
  ready(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
  /** The raw client (Redis only), e.g. for the rate limiter's store. */
  readonly redis?: Redis;
}

export class MemoryCache implements Cache {
  readonly kind = 'memory' as const;
  private readonly entries = new Map<string, { value: string; expires: number }>();
  private readonly bus = new EventEmitter().setMaxListeners(100);

  async get(key: string) {
    const hit = this.entries.get(key);
    if (!hit) return null;
    if (hit.expires < Date.now()) {
      this.entries.delete(key);
      return null;
    }
    return hit.value;
  }
  async set(key: string, value: string, ttlSeconds: number) {
    this.entries.set(key, { value, expires: Date.now() + ttlSeconds * 1000 });
  }
  async del(...keys: string[]) {
    for (const k of keys) this.entries.delete(k);
  }
  async delPrefix(prefix: string) {
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k);
  }
  async publish(channel: string, message: string) {
    this.bus.emit(channel, message);
  }
  async subscribe(channel: string, handler: (message: string) => void) {
    this.bus.on(channel, handler);
  }
  async ping() {
    return true;
  }
  async ready() {
    return true;
  }
  async close() {
    this.bus.removeAllListeners();
    this.entries.clear();
  }
}

export interface RedisCacheOptions {
  url: string;
  keyPrefix: string;
  /** Per-command timeout on the request path: a dead Redis costs milliseconds. */
  commandTimeoutMs?: number;
  log?: Logger;
}

export class RedisCache implements Cache {
  readonly kind = 'redis' as const;
  readonly redis: Redis;
  private subscriber: Redis | undefined;
  private readonly handlers = new Map<string, Array<(message: string) => void>>();
  private lastWarn = 0;

  constructor(private readonly options: RedisCacheOptions) {
    this.redis = new Redis(options.url, RedisCache.clientOptions(options));
    this.redis.on('error', (error) => this.warn(error, 'redis error'));
  }

  static clientOptions(options: RedisCacheOptions) {
    return {
      keyPrefix: options.keyPrefix,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 200,
      connectTimeout: 2000,
      lazyConnect: false,
      retryStrategy: (attempt: number) => Math.min(50 * 2 ** attempt, 2000),
    };
  }

  private warn(error: unknown, msg: string) {
    // At most one line a second while Redis is down.
    const now = Date.now();
    if (now - this.lastWarn < 1000) return;
    this.lastWarn = now;
    this.options.log?.warn({ err: error }, msg);
  }

  async get(key: string) {
    try {
      return await this.redis.get(key);
    } catch (error) {
      this.warn(error, 'cache read failed; serving without cache');
      return null;
    }
  }
  async set(key: string, value: string, ttlSeconds: number) {
    try {
      await this.redis.set(key, value, 'EX', ttlSeconds);
    } catch (error) {
      this.warn(error, 'cache write failed');
    }
  }
  async del(...keys: string[]) {
    if (!keys.length) return;
    try {
      await this.redis.del(...keys);
    } catch (error) {
      this.warn(error, 'cache delete failed');
    }
  }
  async delPrefix(prefix: string) {
    try {
      const full = this.options.keyPrefix + prefix;
      let cursor = '0';
      do {
        const [next, keys] = await this.redis.scan(
          cursor,
          'MATCH',
          `${full.replace(/[*?[\]]/g, '\\$&')}*`,
          'COUNT',
          500,
        );
        cursor = next;
        // keys come back with the prefix; del() would add it again.
        if (keys.length) await this.redis.del(...keys.map((k) => k.slice(this.options.keyPrefix.length)));
      } while (cursor !== '0');
    } catch (error) {
      this.warn(error, 'cache prefix delete failed');
    }
  }
  async publish(channel: string, message: string) {
    try {
      await this.redis.publish(this.options.keyPrefix + channel, message);
    } catch (error) {
      this.warn(error, 'publish failed');
    }
  }
  async subscribe(channel: string, handler: (message: string) => void) {
    const full = this.options.keyPrefix + channel;
    if (!this.subscriber) {
      // Pub/sub needs its own connection; it re-subscribes after reconnects.
      this.subscriber = new Redis(this.options.url, {
        ...RedisCache.clientOptions(this.options),
        keyPrefix: undefined,
        enableOfflineQueue: true,
        commandTimeout: undefined,
      });
      this.subscriber.on('error', (error) => this.warn(error, 'redis subscriber error'));
      this.subscriber.on('message', (ch: string, message: string) => {
        for (const h of this.handlers.get(ch) ?? []) h(message);
      });
    }
    const list = this.handlers.get(full) ?? [];
    list.push(handler);
    this.handlers.set(full, list);
    if (list.length === 1)
      await this.subscriber.subscribe(full).catch((e: unknown) => this.warn(e, 'subscribe failed'));
  }
  async ping() {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }
  ready(timeoutMs = 2000): Promise<boolean> {
    if (this.redis.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.redis.off('ready', onReady);
        resolve(false);
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.redis.once('ready', onReady);
    });
  }
  async close() {
    this.subscriber?.disconnect();
    this.redis.disconnect();
  }
}

export function createCache(env: Pick<Env, 'REDIS_URL' | 'REDIS_KEY_PREFIX'>, log?: Logger): Cache {
  if (env.REDIS_URL) return new RedisCache({ url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX, log });
  log?.info(
    'REDIS_URL is unset: using the in-process cache (single process only; set REDIS_URL to scale out)',
  );
  return new MemoryCache();
}

import type { Redis } from 'ioredis';

type Cb = (err: Error | null, res?: { current: number; ttl: number }) => void;

interface Entry {
  /** The window's total in Redis at the last sync (all gateway instances). */
  base: number;
  /** Counted here since the last sync. */
  pending: number;
  /** Being sent in the current sync. */
  sending: number;
  /** Counted here but never to be sent: a failed sync may still have reached Redis (a timeout), and counting it twice would refuse good requests. */
  localOnly: number;
  /** Asked for by peek(): the next sync reads the shared total even when nothing was counted here. */
  wantRead: boolean;
  windowMs: number;
  windowEnd: number;
}

/**
 * A rate-limit store (fixed windows per key) that counts in process and syncs the counts to
 * Redis every `syncMs` in one pipelined batch (INCRBY + window expiry), so a
 * request costs a map update instead of a Redis round trip. Each decision
 * sees the shared total as of the last sync plus this instance's own counts:
 * across instances a limit may be overshot by what the others counted within
 * one sync interval. A failed sync keeps the local counts (still limiting on
 * this instance, never sent twice) and is reported, so Redis being away never
 * fails or delays a request.
 */
export class BatchedRedisStore {
  private readonly entries = new Map<string, Entry>();
  private timer: NodeJS.Timeout | undefined;
  private syncing = false;

  constructor(
    private readonly redis: Redis | undefined,
    private readonly prefix: string,
    private readonly onSyncError: (error: Error) => void,
    /** False while Redis is known to be unusable (the cache breaker): counts stay pending. */
    private readonly canSync: () => boolean = () => true,
    private readonly syncMs = 100,
  ) {}

  incr(key: string, cb: Cb, timeWindow: number) {
    const now = Date.now();
    const e = this.entry(key, timeWindow, now);
    e.pending++;
    this.schedule();
    cb(null, { current: e.base + e.localOnly + e.sending + e.pending, ttl: e.windowEnd - now });
  }

  /**
   * The window's count without counting, as this instance knew it at its last
   * sync of the key plus its own counts since; asks for a sync, so the next
   * peek sees what the other instances counted until then.
   */
  peek(key: string, timeWindow: number): { current: number; ttl: number } {
    const now = Date.now();
    const e = this.entry(key, timeWindow, now);
    e.wantRead = true;
    this.schedule();
    return { current: e.base + e.localOnly + e.sending + e.pending, ttl: e.windowEnd - now };
  }

  private entry(key: string, timeWindow: number, now: number): Entry {
    let e = this.entries.get(key);
    if (!e || e.windowEnd <= now) {
      e = {
        base: 0,
        pending: 0,
        sending: 0,
        localOnly: 0,
        wantRead: false,
        windowMs: timeWindow,
        windowEnd: now + timeWindow,
      };
      this.entries.set(key, e);
    }
    return e;
  }

  private schedule() {
    if (this.redis && !this.timer) this.timer = setTimeout(() => void this.sync(), this.syncMs).unref();
  }

  /** @fastify/rate-limit asks each limiter for a child store; one shared map serves them all (keys differ). */
  child() {
    return this;
  }

  private async sync() {
    this.timer = undefined;
    if (this.syncing || !this.redis) return;
    if (!this.canSync()) {
      this.timer = setTimeout(() => void this.sync(), this.syncMs).unref();
      return;
    }
    this.syncing = true;
    const now = Date.now();
    const batch: Array<[string, Entry]> = [];
    for (const [key, e] of this.entries) {
      if (e.windowEnd <= now && !e.pending) {
        this.entries.delete(key);
        continue;
      }
      if (!e.pending && !e.wantRead) continue;
      e.sending = e.pending;
      e.pending = 0;
      e.wantRead = false;
      batch.push([key, e]);
    }
    try {
      if (batch.length && this.redis.status === 'ready') {
        // Plain commands (no scripts to reload after a Redis restart): the window starts with the
        // key (SET NX PX), INCRBY keeps its expiry, PTTL tells where the shared window ends.
        const pipeline = this.redis.pipeline();
        for (const [key, e] of batch) {
          pipeline.set(this.prefix + key, '0', 'PX', e.windowMs, 'NX');
          pipeline.incrby(this.prefix + key, e.sending);
          pipeline.pttl(this.prefix + key);
        }
        const results = (await pipeline.exec()) ?? [];
        const at = Date.now();
        batch.forEach(([, e], i) => {
          const incr = results[i * 3 + 1];
          const ttlAnswer = results[i * 3 + 2];
          if (!incr || incr[0] || !ttlAnswer || ttlAnswer[0])
            throw incr?.[0] ?? ttlAnswer?.[0] ?? new Error('bad sync answer');
          const count = Number(incr[1]);
          const ttl = Math.max(0, Number(ttlAnswer[1]));
          // Redis's total now includes what we sent; align the window with the shared one.
          e.base = count;
          e.localOnly = 0;
          e.sending = 0;
          e.windowEnd = at + ttl;
        });
      } else if (batch.length) {
        // Reconnecting: keep the counts for the next sync, nothing to report (the cache client logs the outage).
        for (const [, e] of batch) {
          e.pending += e.sending;
          e.sending = 0;
        }
      }
    } catch (error) {
      // Keep limiting on what this instance counted, without sending it again.
      for (const [, e] of batch) {
        e.localOnly += e.sending;
        e.sending = 0;
      }
      this.onSyncError(error as Error);
    } finally {
      this.syncing = false;
      if ([...this.entries.values()].some((e) => e.pending || e.wantRead) && !this.timer) {
        this.timer = setTimeout(() => void this.sync(), this.syncMs).unref();
      }
    }
  }

  close() {
    clearTimeout(this.timer);
  }
}

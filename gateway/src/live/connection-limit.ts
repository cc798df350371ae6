import type { Redis } from 'ioredis';
import type { Logger } from '@portal/core';

/**
 * At most `max` live streams per signed-in user across every gateway replica:
 * a Redis sorted set per user (member = connection id, score = when the slot
 * lapses unless renewed by the stream's heartbeat), so a replica that dies
 * frees its slots within `slotTtlMs`. Redis down or slow: each replica counts
 * its own connections instead (fail open to a per-process cap, logged).
 */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

export const liveSlotsKey = (tenant: string, userId: number) => `gw:live:conns:${tenant}:${userId}`;

export class ConnectionLimit {
  private readonly local = new Map<string, Set<string>>();
  private lastWarn = 0;

  constructor(
    private readonly redis: Redis | undefined,
    private readonly max: number,
    private readonly slotTtlMs: number,
    private readonly log: Logger,
  ) {}

  /** Takes a slot for the connection; false when the user already holds `max`. */
  async acquire(tenant: string, userId: number, connectionId: string): Promise<boolean> {
    const key = liveSlotsKey(tenant, userId);
    const mine = this.local.get(key) ?? new Set<string>();
    let ok: boolean;
    if (this.redis?.status === 'ready') {
      try {
        const now = Date.now();
        const answer = await this.redis.eval(
          ACQUIRE,
          1,
          key,
          now,
          this.max,
          now + this.slotTtlMs,
          connectionId,
          this.slotTtlMs * 2,
        );
        ok = Number(answer) === 1;
      } catch (error) {
        this.warn(error);
        ok = mine.size < this.max;
      }
    } else {
      ok = mine.size < this.max;
    }
    if (ok) {
      mine.add(connectionId);
      this.local.set(key, mine);
    }
    return ok;
  }

  /**
   * Keeps a live connection's slot (called on every heartbeat), and the set's own expiry with it: a set
   * that lapsed while streams were open would let any number in.
   */
  renew(tenant: string, userId: number, connectionId: string): void {
    if (this.redis?.status !== 'ready') return;
    const key = liveSlotsKey(tenant, userId);
    this.redis
      .multi()
      .zadd(key, 'XX', Date.now() + this.slotTtlMs, connectionId)
      .pexpire(key, this.slotTtlMs * 2)
      .exec()
      .catch((error: unknown) => this.warn(error));
  }

  release(tenant: string, userId: number, connectionId: string): void {
    const key = liveSlotsKey(tenant, userId);
    const mine = this.local.get(key);
    mine?.delete(connectionId);
    if (mine && !mine.size) this.local.delete(key);
    if (this.redis?.status !== 'ready') return;
    this.redis.zrem(key, connectionId).catch((error: unknown) => this.warn(error));
  }

  private warn(error: unknown) {
    const now = Date.now();
    if (now - this.lastWarn < 5000) return;
    this.lastWarn = now;
    this.log.warn({ err: error }, 'live connection limit: Redis unavailable, counting per process');
  }
}

import { createHash } from 'node:crypto';
import type { ApiKeyResolved } from '@portal/contracts';
import { contextWithoutUser } from '@portal/core';
import { errors } from '../errors';
import { callUpstream, upstreamFailure, type Pools } from '../upstreams/pools';

/** A key the user service vouched for, or why it did not (logged, never told to the caller). */
export type KeyCheck =
  { ok: true; key: ApiKeyResolved; validUntilMs: number | null } | { ok: false; reason: string };

interface Entry {
  check: KeyCheck;
  at: number;
}

/**
 * API keys as the gateway knows them (issue 35.1). The user service owns the
 * keys; the gateway asks it (POST /users/internal/api-keys/resolve) with the
 * key id and the SHA-256 of the whole key, so neither the secret nor its hash
 * table leave their owner. An answer is kept in process for at most TTL_MS
 * (1 s), so a revocation, an expiry or a creator disabled or re-roled holds on
 * every gateway within a second even if the invalidation message (`{kind:
 * 'api_key'}` on portal:invalidate, which drops the copy at once) is lost.
 * Refusals are kept as long, so a flood of bad keys costs one call per second
 * per key. The last use is sent with a resolve at most once a minute per key
 * (the user service writes it at most once a minute whatever the gateways).
 */
export class ApiKeyResolver {
  static readonly TTL_MS = 1000;
  static readonly TOUCH_EVERY_MS = 60_000;
  private static readonly MAX_ENTRIES = 50_000;
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<KeyCheck>>();
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly pools: Pools,
    private readonly secret: string,
    private readonly timeoutMs: number,
  ) {}

  /** The cached answer (synchronous), or the user service's (a promise). */
  resolve(
    tenant: string,
    id: string,
    key: string,
    ip: string,
    requestId: string,
    now = Date.now(),
  ): KeyCheck | Promise<KeyCheck> {
    const sha256 = createHash('sha256').update(key, 'utf8').digest('hex');
    const cacheKey = `${tenant}\u0000${id}\u0000${sha256}`;
    const hit = this.entries.get(cacheKey);
    if (hit && now - hit.at < ApiKeyResolver.TTL_MS) return this.stillValid(hit.check, now);
    let p = this.pending.get(cacheKey);
    if (!p) {
      p = this.ask(tenant, id, sha256, ip, requestId)
        .then((check) => {
          if (this.entries.size >= ApiKeyResolver.MAX_ENTRIES) this.entries.clear();
          this.entries.set(cacheKey, { check, at: Date.now() });
          return check;
        })
        .finally(() => this.pending.delete(cacheKey));
      this.pending.set(cacheKey, p);
    }
    return p.then((check) => this.stillValid(check, Date.now()));
  }

  /** A revoked or rotated key (invalidation message): its copies go at once. */
  forget(tenant: string, id: string): void {
    const prefix = `${tenant}\u0000${id}\u0000`;
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Expiry and the end of a rotation grace are checked on every call, cached answer or not. */
  private stillValid(check: KeyCheck, now: number): KeyCheck {
    if (check.ok && check.validUntilMs !== null && check.validUntilMs <= now)
      return { ok: false, reason: 'expired' };
    return check;
  }

  private async ask(
    tenant: string,
    id: string,
    sha256: string,
    ip: string,
    requestId: string,
  ): Promise<KeyCheck> {
    const touchKey = `${tenant}\u0000${id}`;
    const now = Date.now();
    const touch = now - (this.touched.get(touchKey) ?? 0) >= ApiKeyResolver.TOUCH_EVERY_MS;
    let answer;
    try {
      answer = await callUpstream(this.pools.user, this.secret, {
        method: 'POST',
        path: '/users/internal/api-keys/resolve',
        timeoutMs: this.timeoutMs,
        context: contextWithoutUser(tenant, requestId, 'system'),
        body: { id, sha256, ...(touch ? { used_from: ip.slice(0, 64) || null } : {}) },
      });
    } catch (error) {
      throw failureOf(upstreamFailure(error));
    }
    if (answer.status === 200) {
      if (touch) {
        if (this.touched.size >= ApiKeyResolver.MAX_ENTRIES) this.touched.clear();
        this.touched.set(touchKey, now);
      }
      const key = JSON.parse(answer.body) as ApiKeyResolved;
      return { ok: true, key, validUntilMs: key.valid_until === null ? null : Date.parse(key.valid_until) };
    }
    if (answer.status === 401 || answer.status === 404 || answer.status === 400) {
      let reason = 'refused';
      try {
        reason = String((JSON.parse(answer.body) as { message?: unknown }).message ?? reason);
      } catch {
        // the status says enough
      }
      return { ok: false, reason };
    }
    throw failureOf(answer.status);
  }
}

function failureOf(status: number) {
  return status === 504
    ? errors.upstreamTimeout()
    : status === 503
      ? errors.upstreamDown()
      : errors.upstreamBad();
}

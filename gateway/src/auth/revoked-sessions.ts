import { revokedSessionKey } from '@portal/contracts';
import type { GuardedCache } from '../cache/guarded-cache';

/**
 * Access tokens of signed-out sessions (claim `sid` = refresh family, issue
 * 20.9). The user service, at sign-out (and on refresh-token reuse), writes a
 * Redis marker `revokedSessionKey(tenant, sid)` with TTL = access-token
 * lifetime and publishes `{tenant, kind: 'session', id: sid}` on the
 * invalidation channel.
 *
 * Cost per request: two Map lookups. The in-process set, fed by pub/sub
 * (the gateway's one invalidation subscription, app.ts),
 * answers within milliseconds of the sign-out on every gateway. The Redis
 * marker is read once per session per process before its first request here
 * (so a gateway started, or subscribed, after the sign-out knows it too), then
 * re-read in the background at most every MEMO_MS (covers a missed message,
 * e.g. while the subscriber reconnected): never on the request path again.
 *
 * Redis down: fail-open, like the cache and the rate limits (design §4): the
 * marker read answers "not revoked" (the GuardedCache breaker makes it free),
 * while sids already received by pub/sub stay refused. A session signed out
 * during the outage keeps its access token until its expiry (at most
 * ACCESS_TOKEN_TTL_SECONDS); its refresh token is revoked in Postgres all the same.
 */
export class RevokedSessions {
  static readonly MEMO_MS = 15_000;
  private static readonly MAX_ENTRIES = 200_000;
  /** key -> expiry (ms) of sessions known revoked. */
  private readonly revoked = new Map<string, number>();
  /** key -> when Redis last said "not revoked" (ms). */
  private readonly checked = new Map<string, number>();
  private readonly pending = new Map<string, Promise<boolean>>();

  constructor(
    private readonly store: GuardedCache,
    /** Revoked markers outlive any access token (900 s by default, 86,400 s at most). */
    private readonly keepMs = 24 * 3600 * 1000,
  ) {}

  /** Messages sent while Redis was away were missed: every marker is read again on its next request. */
  forgetChecks(): void {
    this.checked.clear();
  }

  add(tenant: string, sid: string, now = Date.now()): void {
    if (this.revoked.size >= RevokedSessions.MAX_ENTRIES) this.prune(now);
    this.revoked.set(revokedSessionKey(tenant, sid), now + this.keepMs);
  }

  /** True when the session was signed out. Awaits Redis only the first time a session is seen here. */
  async isRevoked(tenant: string, sid: string, now = Date.now()): Promise<boolean> {
    return this.check(tenant, sid, now);
  }

  /** As isRevoked, answered synchronously when known here (every request but a session's first). */
  check(tenant: string, sid: string, now = Date.now()): boolean | Promise<boolean> {
    const key = revokedSessionKey(tenant, sid);
    const until = this.revoked.get(key);
    if (until !== undefined) {
      if (until > now) return true;
      this.revoked.delete(key);
    }
    const at = this.checked.get(key);
    if (at === undefined) return this.lookup(key);
    if (now - at >= RevokedSessions.MEMO_MS) void this.lookup(key);
    return false;
  }

  private lookup(key: string): Promise<boolean> {
    let p = this.pending.get(key);
    if (!p) {
      p = this.store
        .get(key)
        .catch(() => null) // fail-open (see the class comment)
        .then((value) => {
          const now = Date.now();
          if (value !== null) {
            this.revoked.set(key, now + this.keepMs);
            this.checked.delete(key);
            return true;
          }
          if (this.checked.size >= RevokedSessions.MAX_ENTRIES) this.checked.clear();
          this.checked.set(key, now);
          return false;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, p);
    }
    return p;
  }

  private prune(now: number) {
    for (const [k, until] of this.revoked) if (until <= now) this.revoked.delete(k);
    // Still full: the oldest entries go (a Map iterates in insertion order).
    for (const k of this.revoked.keys()) {
      if (this.revoked.size < RevokedSessions.MAX_ENTRIES * 0.9) break;
      this.revoked.delete(k);
    }
  }
}

import type { InternalContext, UserProfile } from '@portal/contracts';
import { CachedSource, type CachedSourceOptions, type CacheResult } from '../cache/cached-source';
import type { GuardedCache } from '../cache/guarded-cache';
import { errors } from '../errors';
import { callUpstream, upstreamFailure, type Pools } from '../upstreams/pools';

export const profileKey = (tenant: string, userId: number) => `gw:profile:${tenant}:${userId}`;
export const profilePrefix = (tenant: string) => `gw:profile:${tenant}:`;

/**
 * 'Login As' answers of the user service, per tenant + actor + target (and the
 * target's role and merchant, so a moved or re-roled target is asked again).
 */
export const impersonationKey = (tenant: string, actorId: number, target: UserProfile) =>
  `gw:imp:${tenant}:${actorId}:${target.id}:${target.role}:${target.merchant.id}`;
const impersonationPrefixOf = (profileKeyOrPrefix: string) =>
  profileKeyOrPrefix.replace(/^gw:profile:/, 'gw:imp:');

/**
 * The profile cache; an invalidation of a user (or a tenant, on merchant
 * changes) also drops the 'Login As' answers of that actor (or tenant).
 */
class ProfileSource extends CachedSource<UserProfile | null> {
  constructor(
    store: GuardedCache,
    options: CachedSourceOptions<UserProfile | null>,
    private readonly linked: CachedSource<boolean>,
  ) {
    super(store, options);
  }

  override async invalidate(key: string) {
    await Promise.all([
      super.invalidate(key),
      this.linked.invalidatePrefix(`${impersonationPrefixOf(key)}:`),
    ]);
  }

  override async invalidatePrefix(prefix: string) {
    await Promise.all([
      super.invalidatePrefix(prefix),
      this.linked.invalidatePrefix(impersonationPrefixOf(prefix)),
    ]);
  }

  override clearLocal() {
    super.clearLocal();
    this.linked.clearLocal();
  }
}

/**
 * The whoami profile of a user, cached per tenant + user: 60 s in Redis, 5 s
 * in process, single-flight, dropped on `{tenant, kind:'user', id}`
 * invalidations (all of a tenant's on kind 'merchant': profiles embed the
 * merchant). Null when the user service does not know the user (any more).
 */
export class Profiles {
  readonly source: CachedSource<UserProfile | null>;
  /** Whether an actor may 'Login As' a target: short-lived, dropped with the actor, the tenant. */
  readonly impersonation: CachedSource<boolean>;

  constructor(
    store: GuardedCache,
    private readonly pools: Pools,
    private readonly secret: string,
    private readonly timeoutMs: number,
    onResult: (name: string, result: CacheResult) => void,
  ) {
    this.impersonation = new CachedSource<boolean>(store, {
      name: 'impersonation',
      ttlSeconds: 30,
      localTtlMs: 2000,
      onResult,
    });
    this.source = new ProfileSource(
      store,
      {
        name: 'profile',
        ttlSeconds: 60,
        localTtlMs: 5000,
        cacheable: (p) => p !== null,
        onResult,
      },
      this.impersonation,
    );
  }

  /**
   * The user service's answer to "may `actor` act as `target`" (GET
   * /users/users/{id}/impersonation with the actor's own context): true on
   * 200, false on 401/403/404; anything else is an upstream failure.
   */
  mayImpersonate(tenant: string, actor: UserProfile, target: UserProfile, requestId: string) {
    return this.impersonation.get(impersonationKey(tenant, actor.id, target), () =>
      this.askImpersonation(tenant, actor, target.id, requestId),
    );
  }

  private async askImpersonation(
    tenant: string,
    actor: UserProfile,
    targetId: number,
    requestId: string,
  ): Promise<boolean> {
    const answer = await this.call(`/users/users/${targetId}/impersonation`, 'GET', {
      tenant,
      user_id: actor.id,
      actor_id: actor.id,
      username: actor.username,
      roles: actor.roles,
      merchant_id: actor.merchant.id,
      read_only: actor.is_read_only,
      mids_allowed: actor.mids_allowed,
      mids_excluded: actor.mids_excluded,
      request_id: requestId,
      kind: 'user',
    });
    if (answer.status === 200) return (JSON.parse(answer.body) as { allowed?: unknown }).allowed === true;
    if (answer.status === 401 || answer.status === 403 || answer.status === 404) return false;
    throw failureOf(answer.status);
  }

  private async call(path: string, method: 'GET' | 'POST', context: Omit<InternalContext, 'exp'>) {
    try {
      return await callUpstream(this.pools.user, this.secret, {
        method,
        path,
        timeoutMs: this.timeoutMs,
        context,
      });
    } catch (error) {
      throw failureOf(upstreamFailure(error));
    }
  }

  /** The in-process copy of a profile, synchronously (the hot path); undefined: call get(). */
  peek(tenant: string, userId: number) {
    return this.source.peek(profileKey(tenant, userId));
  }

  get(tenant: string, userId: number, requestId: string) {
    return this.source.get(profileKey(tenant, userId), () => this.fetch(tenant, userId, requestId));
  }

  /** `then` with the profile: synchronously when it is in memory (the hot path), else once it is loaded. */
  with(
    tenant: string,
    userId: number,
    requestId: string,
    then: (loaded: { value: UserProfile | null; result: CacheResult }) => void | Promise<void>,
  ): void | Promise<void> {
    const loaded = this.peek(tenant, userId);
    return loaded === undefined ? this.get(tenant, userId, requestId).then(then) : then(loaded);
  }

  private async fetch(tenant: string, userId: number, requestId: string): Promise<UserProfile | null> {
    const answer = await this.call('/users/whoami', 'POST', {
      tenant,
      user_id: userId,
      actor_id: userId,
      username: null,
      roles: [],
      merchant_id: null,
      read_only: false,
      mids_allowed: [],
      mids_excluded: [],
      request_id: requestId,
      kind: 'user',
    });
    if (answer.status === 200) return JSON.parse(answer.body) as UserProfile;
    if (answer.status === 401 || answer.status === 403 || answer.status === 404) return null;
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

import type { UserProfile } from '@portal/contracts';
import { CachedSource, type CacheResult } from '../cache/cached-source';
import type { GuardedCache } from '../cache/guarded-cache';
import { errors } from '../errors';
import { callUpstream, upstreamFailure, type Pools } from '../upstreams/pools';

export const profileKey = (tenant: string, userId: number) => `gw:profile:${tenant}:${userId}`;
export const profilePrefix = (tenant: string) => `gw:profile:${tenant}:`;

/**
 * The whoami profile of a user, cached per tenant + user: 60 s in Redis, 5 s
 * in process, single-flight, dropped on `{tenant, kind:'user', id}`
 * invalidations (all of a tenant's on kind 'merchant': profiles embed the
 * merchant). Null when the user service does not know the user (any more).
 */
export class Profiles {
  readonly source: CachedSource<UserProfile | null>;

  constructor(
    store: GuardedCache,
    private readonly pools: Pools,
    private readonly secret: string,
    private readonly timeoutMs: number,
    onResult: (name: string, result: CacheResult) => void,
  ) {
    this.source = new CachedSource<UserProfile | null>(store, {
      name: 'profile',
      ttlSeconds: 60,
      localTtlMs: 5000,
      cacheable: (p) => p !== null,
      onResult,
    });
  }

  get(tenant: string, userId: number, requestId: string) {
    return this.source.get(profileKey(tenant, userId), () => this.fetch(tenant, userId, requestId));
  }

  private async fetch(tenant: string, userId: number, requestId: string): Promise<UserProfile | null> {
    let answer;
    try {
      answer = await callUpstream(this.pools.user, this.secret, {
        method: 'POST',
        path: '/users/whoami',
        timeoutMs: this.timeoutMs,
        context: {
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
        },
      });
    } catch (error) {
      const status = upstreamFailure(error);
      throw status === 504
        ? errors.upstreamTimeout()
        : status === 503
          ? errors.upstreamDown()
          : errors.upstreamBad();
    }
    if (answer.status === 200) return JSON.parse(answer.body) as UserProfile;
    if (answer.status === 401 || answer.status === 403 || answer.status === 404) return null;
    throw answer.status === 503
      ? errors.upstreamDown()
      : answer.status === 504
        ? errors.upstreamTimeout()
        : errors.upstreamBad();
  }
}

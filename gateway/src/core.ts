import type { Cache, Env, Logger, ServiceName } from '@portal/core';
import type { ApiKeyResolver } from './api-keys/api-key-resolver';
import type { GatewayAudit } from './audit/audit';
import type { RevokedSessions } from './auth/revoked-sessions';
import type { TokenVerifier } from './auth/verify-token';
import type { CachedSource } from './cache/cached-source';
import type { GuardedCache } from './cache/guarded-cache';
import type { GatewayMetrics } from './metrics/metrics';
import type { Policy } from './policy/policy';
import type { Profiles } from './profile/profiles';
import type { RateLimits } from './rate-limit/limits';
import type { TenantRegistry } from './tenants/registry';
import type { Pools, UpstreamAnswer } from './upstreams/pools';

export interface GatewayDeps {
  env: Env;
  cache: Cache;
  log: Logger;
  contextSecret: string;
  /** Base URL of each upstream service. */
  upstreams: Record<ServiceName, string>;
}

/** The gateway's long-lived parts, built once in buildGateway and shared by the hooks and routes. */
export interface GatewayCore {
  deps: GatewayDeps;
  tenants: TenantRegistry;
  pools: Pools;
  store: GuardedCache;
  metrics: GatewayMetrics;
  verifier: TokenVerifier;
  profiles: Profiles;
  lookups: CachedSource<UpstreamAnswer>;
  stackConfigs: CachedSource<unknown>;
  policy: Policy;
  limits: RateLimits;
  audit: GatewayAudit;
  /** Signed-out sessions whose access tokens are refused (issue 20.9). */
  sessions: RevokedSessions;
  /** Merchant API keys as the user service resolves them (issue 35.1). */
  apiKeys: ApiKeyResolver;
}
export type { CallState } from './pipeline/state';

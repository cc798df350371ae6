import type { ApiKeyScope, UserProfile } from '@portal/contracts';
import type { CompiledRule } from '../policy/policy';
import type { Tenant } from '../tenants/load';

/** What the pipeline learned about a call, for the routes and the proxy after it. */
export interface CallState {
  rule: CompiledRule;
  /** Null on the public auth calls. */
  actor: UserProfile | null;
  /** The effective user: the impersonated one while impersonating. */
  effective: UserProfile | null;
  impersonating: boolean;
  /** Whether the effective user's profile came from the cache (whoami's x-cache). */
  profileCache: 'HIT' | 'MISS' | undefined;
  /** A call made with a merchant API key (issue 35.1): actor and effective are its creator, narrowed. */
  apiKey?: { id: string; scopes: readonly ApiKeyScope[] };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved from Host in the first hook; undefined only for unknown hosts without a default tenant. */
    tenant: Tenant | undefined;
    call: CallState | undefined;
    /** Route label for metrics. */
    routeLabel: string;
  }
}

import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { INVALIDATE_CHANNEL, type InvalidationMessage } from '@portal/contracts';
import { Drain, errorHandler, lazySchemaCompilers } from '@portal/core';
import { apiDocsRoutes } from './api-docs/api-docs-routes';
import { ApiKeyResolver } from './api-keys/api-key-resolver';
import { GatewayAudit } from './audit/audit';
import { Jwks } from './auth/jwks';
import { RevokedSessions } from './auth/revoked-sessions';
import { TokenVerifier } from './auth/verify-token';
import { CachedSource } from './cache/cached-source';
import { GuardedCache } from './cache/guarded-cache';
import { lookupPrefix, lookupRoutes } from './cache/lookup-routes';
import type { GatewayCore, GatewayDeps } from './core';
import { healthRoutes, registerProbes } from './health/health-routes';
import { liveRoutes } from './live/live-routes';
import { GatewayMetrics } from './metrics/metrics';
import { lazyChildLogger } from './pipeline/lazy-logger';
import { registerPipeline, requestId } from './pipeline/pipeline';
import { rewriteToCanonical } from './pipeline/request-target';
import { Policy } from './policy/policy';
import { profileKey, profilePrefix, Profiles } from './profile/profiles';
import { whoamiRoute } from './profile/whoami-route';
import { registerProxies } from './proxy/proxy';
import { RateLimits, usernameOf } from './rate-limit/limits';
import { stackConfigTenantPrefix, stackConfigUserPrefix } from './stack-config/stack-config';
import { stackConfigRoutes } from './stack-config/stack-config-routes';
import { TenantRegistry } from './tenants/registry';
import { tenantRoutes } from './tenants/tenant-routes';
import { closePools, createPools, type UpstreamAnswer } from './upstreams/pools';
import { webRoutes } from './web/web-routes';

export type { GatewayDeps } from './core';

declare module 'fastify' {
  interface FastifyInstance {
    /** The gateway's parts (metrics registry, tenants, caches): for the metrics server and tests. */
    gw: GatewayCore;
  }
}

/** Addresses trusted for X-Forwarded-*; never `true` (the left-most XFF is client-controlled). */
function trustedProxies(list: string): string[] | false {
  const entries = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return entries.length ? entries : false;
}

/**
 * The gateway as a Fastify app (not listening): the only public entry point.
 * Order: core parts -> pipeline hooks (design §4 steps 1-7) -> the gateway's
 * own answers (health, tenant, whoami, stack config, lookups) -> proxies
 * (step 9) -> web app.
 */
export async function buildGateway(
  deps: GatewayDeps,
  options: { watchTenants?: boolean } = {},
): Promise<FastifyInstance> {
  const { env, log } = deps;
  const tenants = new TenantRegistry(env.TENANT_CONFIG_DIR, log.child({ part: 'tenants' }));
  const app = Fastify({
    loggerInstance: deps.log.child({ service: 'gateway' }) as FastifyBaseLogger,
    genReqId: requestId,
    // One canonical target before routing: the policy and the upstreams route the same path.
    rewriteUrl: rewriteToCanonical,
    trustProxy: trustedProxies(env.TRUST_PROXY),
    requestTimeout: 120_000,
    connectionTimeout: 30_000,
    keepAliveTimeout: 72_000,
    bodyLimit: 1024 * 1024,
    // No two log lines per request on the hot path: metrics count requests, errors are logged where they happen.
    logController: new LogController({ disableRequestLogging: true }),
    // The per-request child logger is created only when a request logs (pipeline/lazy-logger.ts).
    childLoggerFactory: lazyChildLogger as never,
    // A request arriving on a kept-alive connection while closing is still served (with Connection:
    // close), not refused: readiness already sent new traffic elsewhere during the drain (server.ts).
    return503OnClosing: false,
    schemaController: { compilersFactory: lazySchemaCompilers() },
  });
  app.setErrorHandler(errorHandler);

  const metrics = new GatewayMetrics();
  const store = new GuardedCache(deps.cache, log);
  const pools = createPools(deps.upstreams, env.UPSTREAM_TIMEOUT_MS);
  const onResult = (name: string, result: 'HIT' | 'MISS') => metrics.cache.inc({ cache: name, result });
  const jwks = new Jwks(async () => {
    const answer = await pools.user.request({
      method: 'GET',
      path: '/users/.well-known/jwks.json',
      headersTimeout: 3000,
      bodyTimeout: 3000,
    });
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      throw new Error(`JWKS answered ${answer.statusCode}`);
    }
    return (await answer.body.json()) as { keys: [] };
  }, log);
  const limits = RateLimits.register(app, store, metrics);
  const gw: GatewayCore = {
    deps,
    tenants,
    pools,
    store,
    metrics,
    verifier: new TokenVerifier(jwks, env.JWT_ISSUER),
    profiles: new Profiles(store, pools, deps.contextSecret, env.UPSTREAM_TIMEOUT_MS, onResult),
    lookups: new CachedSource<UpstreamAnswer>(store, {
      name: 'lookup',
      ttlSeconds: 300,
      localTtlMs: 5000,
      cacheable: (a) => a.status === 200,
      onResult,
    }),
    stackConfigs: new CachedSource<unknown>(store, {
      name: 'config',
      ttlSeconds: 300,
      localTtlMs: 5000,
      onResult,
    }),
    policy: new Policy(),
    limits,
    audit: new GatewayAudit(pools, deps.contextSecret, log),
    sessions: new RevokedSessions(store),
    apiKeys: new ApiKeyResolver(pools, deps.contextSecret, env.UPSTREAM_TIMEOUT_MS),
  };
  app.decorate('gw', gw);
  app.decorate('drain', new Drain());

  // Invalidation (design §4 step 8): every gateway instance drops its copies and the Redis entry.
  await deps.cache.subscribe(INVALIDATE_CHANNEL, (raw) => {
    let m: InvalidationMessage;
    try {
      m = JSON.parse(raw) as InvalidationMessage;
    } catch {
      log.warn({ raw: raw.slice(0, 200) }, 'invalid invalidation message ignored');
      return;
    }
    if (!m || typeof m.tenant !== 'string') return;
    const work: Array<Promise<void>> = [];
    if (m.kind === 'user' && m.id !== null && m.id !== undefined) {
      work.push(gw.profiles.source.invalidate(profileKey(m.tenant, Number(m.id))));
      work.push(gw.stackConfigs.invalidatePrefix(stackConfigUserPrefix(m.tenant, Number(m.id))));
    } else if (m.kind === 'user' || m.kind === 'merchant') {
      work.push(gw.profiles.source.invalidatePrefix(profilePrefix(m.tenant)));
      work.push(gw.stackConfigs.invalidatePrefix(stackConfigTenantPrefix(m.tenant)));
    } else if (m.kind === 'lookup') {
      work.push(gw.lookups.invalidatePrefix(lookupPrefix(m.tenant)));
    } else if (m.kind === 'config') {
      work.push(gw.stackConfigs.invalidatePrefix(stackConfigTenantPrefix(m.tenant)));
    } else if (m.kind === 'session' && typeof m.id === 'string') {
      gw.sessions.add(m.tenant, m.id);
    } else if (m.kind === 'api_key' && typeof m.id === 'string') {
      gw.apiKeys.forget(m.tenant, m.id);
    }
    Promise.all(work).catch((error: unknown) => log.warn({ err: error }, 'invalidation failed'));
  });
  // Invalidations sent while Redis was away were missed: drop the in-process layers when it is back.
  deps.cache.redis?.on('ready', () => {
    gw.profiles.source.clearLocal();
    gw.lookups.clearLocal();
    gw.stackConfigs.clearLocal();
    gw.sessions.forgetChecks();
    gw.apiKeys.clear();
  });

  // The probes first: their hook answers them before the pipeline's (health-routes.ts).
  registerProbes(app, { deps, pools });
  registerPipeline(app, gw);
  await app.register(healthRoutes, { deps, pools });
  await tenantRoutes(app, gw);
  await whoamiRoute(app, gw);
  await stackConfigRoutes(app, gw);
  await lookupRoutes(app, gw);
  await apiDocsRoutes(app, gw);
  await liveRoutes(app, gw);
  await registerProxies(app, {
    pools,
    upstreams: deps.upstreams,
    secret: deps.contextSecret,
    timeoutMs: env.UPSTREAM_TIMEOUT_MS,
    metrics,
    // Only calls naming a username (signin, forgot, forgot/confirm) count against that username.
    authPreHandler: async (request, reply) => {
      if (usernameOf(request) !== undefined) limits.checkUsername(request, reply);
    },
    authOnResponse: async (request, reply) => limits.recordUsernameFailure(request, reply.statusCode),
  });
  await webRoutes(app, gw);

  if (options.watchTenants !== false) tenants.watch();
  app.addHook('onClose', async () => {
    tenants.close();
    await gw.audit.close();
    await closePools(pools);
  });
  return app;
}

/**
 * Child processes of the gateway benchmark (run with `node --import tsx`):
 *   upstream <json>  a trivial HTTP upstream (also the JWKS and whoami of a user service)
 *   gateway <json>   the real gateway in front of it (or another tree's: `gatewayModule`)
 *   bare <json>      a bare @fastify/http-proxy in front of it (the reference of the figures)
 * Each prints `READY <port>`; the bench reads their CPU time from /proc/<pid>/stat.
 */
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type HttpProxy from '@fastify/http-proxy';
import type FastifyFactory from 'fastify';
import { createLogger, loadEnv, MemoryCache, RedisCache, type Cache } from '@portal/core';
import { buildGateway } from '@portal/gateway';

const [mode, raw] = process.argv.slice(2);
const config = JSON.parse(raw ?? '{}') as Record<string, unknown>;

// A clean exit on SIGINT (a --cpu-prof profile is written at exit).
process.on('SIGINT', () => process.exit(0));

async function upstream() {
  const body = JSON.stringify({
    data: [{ id: 1, case_no: 'CB-0001', status: 'New', amount: 125.5 }],
    pagination: { total: 1, limit: 25, start: 0 },
  });
  const profile = JSON.stringify(config.profile);
  const jwks = JSON.stringify(config.jwks);
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    req.resume();
    req.on('end', () => {
      const send = (text: string) =>
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
          .end(text);
      if (url.startsWith('/users/.well-known/jwks.json')) return send(jwks);
      if (url.startsWith('/users/whoami')) return send(profile);
      if (url.startsWith('/health')) return send('{"status":"ok","checks":{"postgres":"up"}}');
      return send(body);
    });
  });
  server.keepAliveTimeout = 72_000;
  server.listen(0, '127.0.0.1', () => console.log(`READY ${(server.address() as { port: number }).port}`));
}

async function gateway() {
  const env = loadEnv(['gateway'], {
    NODE_ENV: 'development',
    LOG_LEVEL: 'error',
    TENANT_CONFIG_DIR: String(config.tenantDir),
    WEB_DIST_DIR: '/nonexistent',
    REDIS_URL: config.redisUrl ? String(config.redisUrl) : undefined,
    // A key space per bench run: lookups of an earlier run (300 s in Redis) must not answer this run's misses.
    REDIS_KEY_PREFIX: config.keyPrefix ? String(config.keyPrefix) : 'bench:gw:',
    INTERNAL_CONTEXT_SECRET: String(config.secret),
    UPSTREAM_TIMEOUT_MS: '10000',
  });
  const log = createLogger(env, 'gateway-bench');
  const cache: Cache = env.REDIS_URL
    ? new RedisCache({ url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX, log })
    : new MemoryCache();
  await cache.ready(3000);
  const upstreams = config.upstreams as { case: string; user: string; docs: string; builder: string };
  // BENCH_GATEWAY_BEFORE: another tree's gateway (e.g. a `git worktree` of HEAD) for a before/after in one run.
  const build = config.gatewayModule
    ? ((await import(String(config.gatewayModule))) as { buildGateway: typeof buildGateway }).buildGateway
    : buildGateway;
  const app = await build(
    { env, cache, log, contextSecret: env.INTERNAL_CONTEXT_SECRET!, upstreams },
    { watchTenants: false },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(`READY ${(app.server.address() as { port: number }).port}`);
}

async function bare() {
  // The common Fastify proxy plugin, as a reference point (the gateway forwards through undici itself).
  const req = createRequire(new URL('../package.json', import.meta.url));
  const Fastify = req('fastify') as typeof FastifyFactory;
  const httpProxy = req('@fastify/http-proxy') as typeof HttpProxy;
  const app = Fastify();
  await app.register(httpProxy, {
    upstream: String(config.upstream),
    prefix: '/api/docs',
    rewritePrefix: '/docs',
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(`READY ${(app.server.address() as { port: number }).port}`);
}

(mode === 'upstream' ? upstream() : mode === 'bare' ? bare() : gateway()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { REQUEST_ID_HEADER } from '@portal/contracts';
import { errorHandler, type Cache, type Env, type Logger, type ServiceName } from '@portal/core';
import { healthRoutes } from './health/health-routes';

export interface GatewayDeps {
  env: Env;
  cache: Cache;
  log: Logger;
  contextSecret: string;
  /** Base URL of each upstream service. */
  upstreams: Record<ServiceName, string>;
}

/** Addresses trusted for X-Forwarded-*; never `true` (the left-most XFF is client-controlled). */
function trustedProxies(list: string): string[] | false {
  const entries = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return entries.length ? entries : false;
}

/** The gateway as a Fastify app (not listening): the only public entry point. */
export async function buildGateway(deps: GatewayDeps): Promise<FastifyInstance> {
  const { env } = deps;
  const app = Fastify({
    loggerInstance: deps.log.child({ service: 'gateway' }) as FastifyBaseLogger,
    requestIdHeader: REQUEST_ID_HEADER,
    genReqId: () => randomUUID(),
    trustProxy: trustedProxies(env.TRUST_PROXY),
    requestTimeout: 30_000,
    connectionTimeout: 30_000,
    keepAliveTimeout: 72_000,
    bodyLimit: 1024 * 1024,
  });
  app.setErrorHandler(errorHandler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });

  await app.register(healthRoutes, { deps });

  app.all('/api/*', async (request, reply) =>
    reply.status(404).send({ statusCode: 404, error: 'Not Found', message: `No API route ${request.method} ${request.url.split('?')[0]}` }),
  );

  const webDist = resolve(env.WEB_DIST_DIR);
  const indexFile = join(webDist, 'index.html');
  if (existsSync(indexFile)) {
    const indexHtml = readFileSync(indexFile, 'utf8');
    await app.register(fastifyStatic, {
      root: join(webDist, 'assets'),
      prefix: '/assets/',
      wildcard: false,
      immutable: true,
      maxAge: '365d',
      index: false,
    });
    // SPA fallback only for paths without a file extension: a missing /assets/x.js is a 404, not HTML.
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      if (request.method !== 'GET' || /\.[a-z0-9]+$/i.test(path)) {
        return reply.status(404).send({ statusCode: 404, error: 'Not Found', message: 'Not found' });
      }
      return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(indexHtml);
    });
  } else {
    deps.log.warn({ webDist }, 'web app not built: only /api is served');
  }
  return app;
}

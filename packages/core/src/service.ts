import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  HealthResponse,
  INTERNAL_CONTEXT_HEADER,
  REQUEST_ID_HEADER,
  SERVICE_HEALTH_PATH,
  type InternalContext,
} from '@portal/contracts';
import type { Cache } from './cache';
import type { Db } from './db';
import type { Env, ServiceName } from './env';
import { errorHandler, notFoundHandler, unauthorized } from './errors';
import { registerInputGuard } from './input-guard';
import { lazySchemaCompilers } from './lazy-schemas';
import { verifyContext } from './internal-context';
import type { Logger } from './logger';

/** What every service gets from its process: one db, one cache, the context key. */
export interface ServiceDeps {
  env: Env;
  db: Db;
  cache: Cache;
  contextSecret: string;
  log: Logger;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified internal context; set on every route but the public ones. */
    ctx: InternalContext;
  }
  interface FastifyInstance {
    deps: ServiceDeps;
  }
}

export interface ServiceDefinition {
  name: ServiceName;
  title: string;
  /** Route plugin; gets `app.deps` and `request.ctx`. */
  routes: FastifyPluginAsync;
  /** Paths callable without an internal context besides /health and /openapi.json (e.g. the JWKS). */
  publicPaths?: readonly string[];
  /** Larger bodies for upload routes; 1 MiB otherwise. */
  bodyLimit?: number;
}

const ALWAYS_PUBLIC = [SERVICE_HEALTH_PATH, '/openapi.json'];

/**
 * Builds a service as a Fastify app (not listening): tests inject into it,
 * server.ts and the embedded runner listen.
 */
export async function buildServiceApp(def: ServiceDefinition, deps: ServiceDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log.child({ service: def.name }) as FastifyBaseLogger,
    requestIdHeader: REQUEST_ID_HEADER,
    genReqId: () => randomUUID(),
    requestTimeout: 120_000,
    connectionTimeout: 30_000,
    keepAliveTimeout: 72_000,
    bodyLimit: def.bodyLimit ?? 1024 * 1024,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
    schemaController: { compilersFactory: lazySchemaCompilers() },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('deps', deps);
  registerInputGuard(app);
  app.decorateRequest('ctx', null as unknown as InternalContext);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });

  const publicPaths = new Set([...ALWAYS_PUBLIC, ...(def.publicPaths ?? [])]);
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0] ?? '';
    if (publicPaths.has(path)) return;
    const header = request.headers[INTERNAL_CONTEXT_HEADER];
    const check = verifyContext(Array.isArray(header) ? header[0] : header, deps.contextSecret);
    if (!check.ok) {
      request.log.warn({ reason: check.reason }, 'call refused: no valid internal context');
      throw unauthorized('Calls must come through the gateway.');
    }
    request.ctx = check.context;
  });

  await app.register(swagger, {
    openapi: { info: { title: def.title, version: '1.0.0' } },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get(
    SERVICE_HEALTH_PATH,
    { schema: { response: { 200: HealthResponse, 503: HealthResponse } } },
    async (_req, reply) => {
      const [db, cache] = await Promise.all([
        deps.db.query('select 1').then(
          () => 'up' as const,
          () => 'down' as const,
        ),
        deps.cache.kind === 'memory'
          ? Promise.resolve('off' as const)
          : deps.cache.ping().then((ok) => (ok ? 'up' : 'down') as 'up' | 'down'),
      ]);
      // Redis down degrades a service but does not stop it serving.
      const status = db === 'down' ? 'down' : cache === 'down' ? 'degraded' : 'ok';
      return reply
        .status(db === 'down' ? 503 : 200)
        .send({ status, service: def.name, checks: { postgres: db, redis: cache } });
    },
  );

  await app.register(def.routes);
  return app;
}

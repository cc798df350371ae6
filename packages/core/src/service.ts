import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  HealthResponse,
  INTERNAL_CONTEXT_HEADER,
  REQUEST_ID_HEADER,
  SERVICE_HEALTH_PATH,
  SERVICE_LIVE_PATH,
  SERVICE_READY_PATH,
  type InternalContext,
} from '@portal/contracts';
import type { Cache } from './cache';
import type { Db } from './db';
import type { Env, ServiceName } from './env';
import { errorHandler, notFoundHandler, unauthorized } from './errors';
import {
  Drain,
  liveAnswer,
  postgresCheck,
  READINESS_CACHE_MS,
  readinessAnswer,
  redisCheck,
  reusedFor,
} from './health';
import { registerInputGuard } from './input-guard';
import { lazySchemaCompilers } from './lazy-schemas';
import { verifyContext } from './internal-context';
import { toOpenApiDocumentSchemas } from './openapi/openapi-schema';
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
  /** Paths callable without an internal context besides the health routes and /openapi.json (e.g. the JWKS). */
  publicPaths?: readonly string[];
  /** Larger bodies for upload routes; 1 MiB otherwise. */
  bodyLimit?: number;
}

const ALWAYS_PUBLIC = [SERVICE_HEALTH_PATH, SERVICE_LIVE_PATH, SERVICE_READY_PATH, '/openapi.json'];

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
    // A request arriving on a kept-alive connection while closing is still served (with Connection:
    // close), not refused: readiness already sent new traffic elsewhere during the drain.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('deps', deps);
  app.decorate('drain', new Drain());
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
    openapi: { openapi: '3.0.3', info: { title: def.title, version: '1.0.0' } },
    // TypeBox writes JSON Schema; the document speaks OpenAPI 3.0.3's dialect (issue 35.2).
    transformObject: (doc) =>
      'openapiObject' in doc ? toOpenApiDocumentSchemas(doc.openapiObject) : doc.swaggerObject,
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

  // The probes (liveness, readiness): design §12, contracts' SERVICE_LIVE_PATH and SERVICE_READY_PATH.
  const probeSchema = { schema: { response: { 200: HealthResponse, 503: HealthResponse } } };
  app.get(SERVICE_LIVE_PATH, probeSchema, async (_req, reply) => {
    const { statusCode, body } = liveAnswer(def.name);
    return reply.status(statusCode).header('cache-control', 'no-store').send(body);
  });

  // Ready while Postgres answers and the process is not draining. Redis is reported but not needed:
  // without it a service still serves every call (cache reads miss, writes and invalidations are
  // dropped and logged, design §4), so an outage of Redis must not empty every service's endpoints.
  const readyChecks = reusedFor(READINESS_CACHE_MS, async () => {
    const [postgres, redis] = await Promise.all([postgresCheck(deps.db), redisCheck(deps.cache)]);
    return { postgres, redis };
  });
  app.get(SERVICE_READY_PATH, probeSchema, async (_req, reply) => {
    // A draining process answers at once: it is going away whatever its dependencies say.
    const checks = app.drain.draining ? {} : await readyChecks();
    const { statusCode, body } = readinessAnswer(def.name, checks, ['postgres'], app.drain.draining);
    return reply.status(statusCode).header('cache-control', 'no-store').send(body);
  });

  await app.register(def.routes);
  return app;
}

import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HTTPMethods,
  onResponseAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import type { Dispatcher } from 'undici';
import type { ServiceName } from '@portal/core';
import { errors, type GatewayError } from '../errors';
import type { GatewayMetrics } from '../metrics/metrics';
import { upstreamFailure, type Pools } from '../upstreams/pools';
import { ContextSigner } from './context-signer';
import { clientResponseHeaders, upstreamRequestHeaders } from './headers';

interface ProxyOptions {
  pools: Pools;
  upstreams: Record<ServiceName, string>;
  secret: string;
  timeoutMs: number;
  metrics: GatewayMetrics;
  /** Runs on the identity calls once their body is parsed (per-username rate limit). */
  authPreHandler: preHandlerAsyncHookHandler;
  /** After an identity call's answer (counts refused credentials). */
  authOnResponse: onResponseAsyncHookHandler;
}

/** Public prefix -> upstream and its path (design §4 step 9): `/api` stripped. */
export const ROUTES: ReadonlyArray<{ prefix: string; upstream: ServiceName; rewritePrefix: string }> = [
  { prefix: '/api/cm', upstream: 'case', rewritePrefix: '/cm' },
  { prefix: '/api/ert', upstream: 'case', rewritePrefix: '/ert' },
  { prefix: '/api/users', upstream: 'user', rewritePrefix: '/users' },
  { prefix: '/api/docs', upstream: 'docs', rewritePrefix: '/docs' },
  { prefix: '/api/builder', upstream: 'builder', rewritePrefix: '/builder' },
  // Processor webhooks (issue 32): streamed untouched, so the signature still covers the bytes received.
  { prefix: '/api/connectors', upstream: 'case', rewritePrefix: '/connectors' },
];

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Upstream transport failures answered as generic JSON (no host:port, no error text). */
function sendFailure(reply: FastifyReply, upstream: ServiceName, metrics: GatewayMetrics, error: unknown) {
  const status = upstreamFailure(error);
  metrics.upstreamErrors.inc({ upstream, status: String(status) });
  const e = error as { code?: string; cause?: { code?: string } };
  reply.request.log.warn({ upstream, status, code: e.code, cause: e.cause?.code }, 'upstream failed');
  const body: GatewayError =
    status === 503 ? errors.upstreamDown() : status === 504 ? errors.upstreamTimeout() : errors.upstreamBad();
  return reply.code(status).send({
    statusCode: status,
    error: status === 503 ? 'Service Unavailable' : status === 504 ? 'Gateway Timeout' : 'Bad Gateway',
    message: body.message,
  });
}

/**
 * Forwards the canonical request to its upstream through the upstream's
 * keep-alive pool (undici directly: one request object, the answer streamed
 * back), with the allow-listed headers and the signed context. No retries: a
 * write must never run twice, and a GET answered 503 is the answer.
 */
export async function registerProxies(app: FastifyInstance, o: ProxyOptions) {
  const origins = new Set(Object.values(o.upstreams).map((u) => new URL(u).origin));
  const signer = new ContextSigner(o.secret);

  const route = (
    scope: FastifyInstance,
    prefix: string,
    upstream: ServiceName,
    rewritePrefix: string,
    parsedBody: boolean,
  ) => {
    const pool = o.pools[upstream];
    const withCookies = prefix === '/api/users/auth';
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const timeout = request.tenant?.config.upstream_timeout_ms ?? o.timeoutMs;
      const headers = upstreamRequestHeaders(request, request.headers, signer, withCookies);
      let body: Dispatcher.DispatchOptions['body'];
      if (parsedBody) {
        // Re-serialised: the parser already read (and bounded) the client's bytes.
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          const form = typeof request.body === 'string';
          body = form ? (request.body as string) : JSON.stringify(request.body ?? {});
          headers['content-length'] = String(Buffer.byteLength(body));
          headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
        }
      } else if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding']) {
        body = request.raw;
      }
      let answer: Dispatcher.ResponseData;
      try {
        answer = await pool.request({
          method: request.method as Dispatcher.HttpMethod,
          path: rewritePrefix + request.url.slice(prefix.length),
          headers,
          body,
          headersTimeout: timeout,
          bodyTimeout: timeout,
        });
      } catch (error) {
        return sendFailure(reply, upstream, o.metrics, error);
      }
      reply.code(answer.statusCode);
      reply.headers(clientResponseHeaders(answer.headers, origins));
      return reply.send(answer.body);
    };
    scope.route({ method: METHODS, url: prefix, handler });
    scope.route({ method: METHODS, url: `${prefix}/*`, handler });
  };

  // The identity calls get their own scope: parsed JSON (an empty body counts as {}).
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_req, body, done) => {
        const text = String(body).trim();
        if (!text) return done(null, {});
        try {
          done(null, JSON.parse(text));
        } catch {
          done(errors.badRequest('The request body is not valid JSON.'), undefined);
        }
      },
    );
    // Identity provider posts (SAML) arrive as forms: forwarded as they came.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 512 * 1024 },
      (_req, body, done) => done(null, String(body)),
    );
    scope.addHook('preHandler', o.authPreHandler);
    scope.addHook('onResponse', o.authOnResponse);
    route(scope, '/api/users/auth', 'user', '/users/auth', true);
  });
  // Everything else streams: the body is not read here, the upstream reads (and bounds) it.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    for (const r of ROUTES) route(scope, r.prefix, r.upstream, r.rewritePrefix, false);
  });
}

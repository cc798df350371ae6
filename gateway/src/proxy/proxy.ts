import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import type { ServiceName } from '@portal/core';
import { errors, type GatewayError } from '../errors';
import type { GatewayMetrics } from '../metrics/metrics';
import { upstreamFailure, type Pools } from '../upstreams/pools';
import { ContextSigner } from './context-signer';
import { clientResponseHeaders, upstreamRequestHeaders } from './headers';

export interface ProxyOptions {
  pools: Pools;
  upstreams: Record<ServiceName, string>;
  secret: string;
  timeoutMs: number;
  metrics: GatewayMetrics;
  /** Runs on the identity calls once their body is parsed (per-username rate limit). */
  authPreHandler: preHandlerAsyncHookHandler;
}

/** Public prefix -> upstream and its path (design §4 step 9): `/api` stripped. */
export const ROUTES: ReadonlyArray<{ prefix: string; upstream: ServiceName; rewritePrefix: string }> = [
  { prefix: '/api/cm', upstream: 'case', rewritePrefix: '/cm' },
  { prefix: '/api/ert', upstream: 'case', rewritePrefix: '/ert' },
  { prefix: '/api/users', upstream: 'user', rewritePrefix: '/users' },
  { prefix: '/api/docs', upstream: 'docs', rewritePrefix: '/docs' },
  { prefix: '/api/builder', upstream: 'builder', rewritePrefix: '/builder' },
];

/** Upstream transport failures answered as generic JSON (no host:port, no error text). */
function onError(upstream: ServiceName, metrics: GatewayMetrics) {
  return (reply: FastifyReply, { error }: { error: Error }) => {
    const status = upstreamFailure(error);
    metrics.upstreamErrors.inc({ upstream, status: String(status) });
    reply.request.log.warn(
      {
        upstream,
        status,
        code: (error as { code?: string }).code,
        cause: (error.cause as { code?: string })?.code,
      },
      'upstream failed',
    );
    const e: GatewayError =
      status === 503
        ? errors.upstreamDown()
        : status === 504
          ? errors.upstreamTimeout()
          : errors.upstreamBad();
    reply.code(status).send({
      statusCode: status,
      error: status === 503 ? 'Service Unavailable' : status === 504 ? 'Gateway Timeout' : 'Bad Gateway',
      message: e.message,
    });
  };
}

export async function registerProxies(app: FastifyInstance, o: ProxyOptions) {
  const origins = new Set(Object.values(o.upstreams).map((u) => new URL(u).origin));
  const signer = new ContextSigner(o.secret);
  const register = async (
    scope: FastifyInstance,
    prefix: string,
    upstream: ServiceName,
    rewritePrefix: string,
    parseBody: boolean,
  ) => {
    const withCookies = prefix === '/api/users/auth';
    await scope.register(httpProxy, {
      upstream: o.upstreams[upstream],
      prefix,
      rewritePrefix,
      // Our own pool: keep-alive, bounded connect/header/body timeouts.
      undici: o.pools[upstream] as never,
      // Parsed JSON bodies for the auth calls (the username rate limit reads them); streams elsewhere.
      proxyPayloads: !parseBody,
      disableRequestLogging: true,
      // Upstream answers are not proxied as errors: pass through 4xx/5xx bodies unchanged.
      replyOptions: {
        rewriteRequestHeaders: (request: FastifyRequest, headers: IncomingHttpHeaders) =>
          upstreamRequestHeaders(request, headers, signer, withCookies),
        rewriteHeaders: (headers: Record<string, unknown>) =>
          clientResponseHeaders(headers as Record<string, unknown>, origins),
        onError: onError(upstream, o.metrics),
        // No retries: a GET answered 503 would otherwise be retried 10 times, and writes never are.
        retryDelay: () => null,
        retriesCount: 0,
        timeout: o.timeoutMs,
      } as never,
      // Per-tenant timeout, by replacing the handler's options.
      handler: (request, reply, dest, options) => {
        const t = request.tenant?.config.upstream_timeout_ms;
        return reply.from(dest, t ? { ...options, timeout: t } : options);
      },
    });
  };
  // The identity calls get their own scope: parsed JSON (an empty body counts as {}).
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
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
    scope.addHook('preHandler', o.authPreHandler);
    await register(scope, '/api/users/auth', 'user', '/users/auth', true);
  });
  for (const r of ROUTES) await register(app, r.prefix, r.upstream, r.rewritePrefix, false);
}

import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  LIVE_MAX_CONNECTIONS_PER_USER,
  LIVE_PATH,
  LIVE_TOO_MANY_CONNECTIONS,
  type LiveMessage,
  type UserProfile,
} from '@portal/contracts';
import type { GatewayCore } from '../core';
import { errors, GatewayError } from '../errors';
import { ConnectionLimit } from './connection-limit';
import { LiveHub, type LiveClient } from './live-hub';
import { viewerOf } from './live-scope';

/**
 * GET /api/live: live updates as Server-Sent Events (issue 21).
 *
 * The call goes through the whole pipeline like any other (token, session,
 * forced password update, impersonation: an impersonated session hears the
 * impersonated user's stream; read-only users may listen). The stream:
 *   retry + `event: ready`   at once: {heartbeat_seconds, expires_at}
 *   `data: <LiveMessage>`    a job or domain event the user may see (live-scope.ts)
 *   `: ping`                 every 15 s, which also re-checks the session and the user's scope
 *   `event: end`             {reason}: 'expired' when the access token expires, 'session' when
 *                            it was signed out or the user locked, 'scope' when the user's merchant
 *                            or MIDs changed, 'shutdown', 'unavailable' (Redis lost), 'slow'; the
 *                            browser reconnects (with a fresh token), polling meanwhile.
 * At most 5 streams per signed-in user over all replicas (429 beyond); 503 while Redis is down.
 */
interface LiveOptions {
  heartbeatMs?: number;
  maxPerUser?: number;
}

/** A client slower than this much queued output is dropped (it reconnects and refetches). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

const liveErrors = {
  tooMany: () => new GatewayError('GW_LIVE_TOO_MANY', 429, LIVE_TOO_MANY_CONNECTIONS),
  unavailable: () =>
    new GatewayError(
      'GW_LIVE_UNAVAILABLE',
      503,
      'Live updates are unavailable right now; the page refreshes itself.',
    ),
};

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (!h || h.length < 8 || h.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return h.slice(7).trim() || undefined;
}

/** What about a user decides what they may hear: a change ends the stream so that it restarts with the new scope. */
const scopeOf = (p: UserProfile) =>
  JSON.stringify([p.merchant.id, [...p.roles].sort(), p.mids_allowed, p.mids_excluded]);

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

export async function liveRoutes(app: FastifyInstance, gw: GatewayCore, options: LiveOptions = {}) {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const log = gw.deps.log.child({ part: 'live' });
  const hub = new LiveHub(gw.deps.cache, log);
  const redis = gw.deps.cache.redis;
  const limit = new ConnectionLimit(
    redis,
    options.maxPerUser ?? LIVE_MAX_CONNECTIONS_PER_USER,
    heartbeatMs * 3,
    log,
  );
  // Without Redis this replica hears nothing published elsewhere: the browsers poll instead.
  redis?.on('close', () => hub.endAll('unavailable'));
  app.addHook('preClose', async () => hub.endAll('shutdown'));

  app.get(LIVE_PATH, async (request, reply) => {
    const call = request.call;
    const tenant = request.tenant;
    const token = bearer(request);
    if (!call?.actor || !call.effective || !tenant || !token) throw errors.unauthenticated();
    if (gw.deps.cache.kind === 'redis' && redis?.status !== 'ready') throw liveErrors.unavailable();
    const check = await gw.verifier.verify(token, tenant.config.id);
    if (!check.ok) throw errors.invalidToken();
    const tenantId = tenant.config.id;
    const actor = call.actor;
    const effective = call.effective;
    // The effective user's own profile (not the copy capped for impersonation) is what later checks compare.
    const base = call.impersonating
      ? (await gw.profiles.get(tenantId, effective.id, request.id)).value
      : effective;
    if (!base) throw errors.invalidToken();
    const scope = scopeOf(base);

    const id = randomUUID();
    if (!(await limit.acquire(tenantId, actor.id, id))) throw liveErrors.tooMany();

    const stream = new PassThrough();
    let closed = false;
    const write = (chunk: string) => {
      if (closed) return;
      if (stream.writableLength > MAX_BUFFERED_BYTES) return end('slow');
      stream.write(chunk);
    };
    const client: LiveClient = {
      tenant: tenantId,
      viewer: viewerOf(call.effective),
      send: (message: LiveMessage) => {
        // Signed out elsewhere (known here within milliseconds, by pub/sub): nothing more for this token.
        const sid = check.token.sid;
        if (sid !== undefined && gw.sessions.check(tenantId, sid) === true) return end('session');
        write(`data: ${JSON.stringify(message)}\n\n`);
      },
      end: (reason: string) => end(reason),
    };

    /** Still the same session and scope? A reason to end the stream, or null. */
    const recheck = async (): Promise<string | null> => {
      if (check.token.sid !== undefined) {
        const revoked = gw.sessions.check(tenantId, check.token.sid);
        if (revoked === true || (revoked !== false && (await revoked))) return 'session';
      }
      const now = (await gw.profiles.get(tenantId, actor.id, request.id)).value;
      if (!now || now.status !== 1) return 'session';
      if (
        now.session_version !== undefined &&
        check.token.sv !== undefined &&
        check.token.sv < now.session_version
      )
        return 'session';
      const target = call.impersonating
        ? (await gw.profiles.get(tenantId, effective.id, request.id)).value
        : now;
      if (!target || target.status !== 1) return 'session';
      return scopeOf(target) === scope ? null : 'scope';
    };

    const heartbeat = setInterval(() => {
      write(': ping\n\n');
      limit.renew(tenantId, actor.id, id);
      recheck().then(
        (reason) => reason && end(reason),
        // The user service unreachable for a moment is no reason to drop the stream.
        (err: unknown) => log.debug({ err }, 'live recheck failed'),
      );
    }, heartbeatMs);
    const expiresInMs = check.token.exp * 1000 - Date.now();
    const expiry = setTimeout(() => end('expired'), Math.max(0, Math.min(expiresInMs, 2 ** 31 - 1)));

    function cleanup() {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      clearTimeout(expiry);
      hub.remove(client);
      limit.release(tenantId, actor.id, id);
    }
    function end(reason: string) {
      if (closed) return;
      stream.write(event('end', { reason }));
      cleanup();
      stream.end();
    }
    reply.raw.on('close', () => {
      cleanup();
      stream.destroy();
    });

    await hub.add(client);
    write(
      `retry: 2000\n${event('ready', { heartbeat_seconds: heartbeatMs / 1000, expires_at: new Date(check.token.exp * 1000).toISOString() })}`,
    );
    reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-accel-buffering', 'no');
    return reply.send(stream);
  });
}

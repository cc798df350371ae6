import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  API_KEY_PREFIX,
  GATEWAY_HEALTH_PATH,
  IMPERSONATE_HEADER,
  REQUEST_ID_HEADER,
  type UserProfile,
} from '@portal/contracts';
import { apiKeyStep } from '../api-keys/api-key-step';
import { impersonate } from '../auth/impersonation';
import type { TokenCheck, VerifiedToken } from '../auth/verify-token';
import type { CacheResult } from '../cache/cached-source';
import { errors, passwordUpdateRequired } from '../errors';
import { decide, type CompiledRule } from '../policy/policy';
import type { Tenant } from '../tenants/load';
import { baseSecurityHeaders } from '../web/security-headers';
import { canonicalPath, hasSingleHost } from './request-target';
import type { GatewayCore } from '../core';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;
/** A caller's request id is kept only when it looks like one (no log injection), else a new one. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** Gateway-answered public paths (no token). */
const OPEN_PATHS = new Set([GATEWAY_HEALTH_PATH, '/api/tenant']);

const BODY_LIMITS: ReadonlyArray<[string, number]> = [
  ['/api/docs/', 50 * 1024 * 1024],
  ['/api/cm/mids/upload', 10 * 1024 * 1024],
  ['/api/cm/onboarding', 10 * 1024 * 1024],
  ['/api/cm/cases/updater', 10 * 1024 * 1024],
  ['/api/ert/erts', 25 * 1024 * 1024],
];
const DEFAULT_BODY_LIMIT = 1024 * 1024;

function bodyLimit(path: string) {
  for (const [prefix, limit] of BODY_LIMITS) if (path.startsWith(prefix)) return limit;
  return DEFAULT_BODY_LIMIT;
}

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (!h || h.length < 8 || h.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return h.slice(7).trim() || undefined;
}

/** The one place of design §4 steps 1-7; the routes and the proxy come after. */
export function registerPipeline(app: FastifyInstance, gw: GatewayCore) {
  app.decorateRequest('tenant', undefined);
  app.decorateRequest('call', undefined);
  app.decorateRequest('routeLabel', 'other');

  // Steps 1-7 in one callback hook. On the hot path (token verified before, profile and session known
  // in process) everything is answered synchronously: no promise, no extra tick per request; anything
  // that must wait (a token's first verification, a profile or session lookup, impersonation) goes on
  // asynchronously from that step, in the same order.
  app.addHook('onRequest', (request, reply, done) => {
    gw.audit.begin(request);
    let pending: void | Promise<void>;
    try {
      pending = gate(gw, request, reply);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (pending) pending.then(() => done(), done);
    else done();
  });

  // Every write and every impersonated call is audited before it is answered (design §11: an answered
  // request's entry survives a gateway crash; audit/audit.ts). onSend runs once the status is final and
  // before a byte is written, for the gateway's own answers, errors and proxied streams alike. A call
  // not audited goes on at once (no promise); an audited one waits for its group commit, bounded by
  // the audit's wait and the tenant's upstream timeout, and is never failed by it.
  app.addHook('onSend', (request, reply, payload, done) => {
    const timeout = request.tenant?.config.upstream_timeout_ms ?? gw.deps.env.UPSTREAM_TIMEOUT_MS;
    const stored = gw.audit.record(request, reply.statusCode, timeout);
    if (!stored) {
      done(null, payload);
      return;
    }
    void stored.then((outcome) => {
      if (outcome !== 'stored') gw.metrics.auditFallback.inc({ reason: outcome });
      done(null, payload);
    });
  });

  // An audited answer that did not pass onSend is buffered now; then the metrics. A callback hook.
  app.addHook('onResponse', (request, reply, done) => {
    if (gw.audit.observe(request, reply.statusCode)) gw.metrics.auditFallback.inc({ reason: 'after-answer' });
    gw.metrics.observe(
      request.routeLabel,
      request.tenant?.config.id ?? '',
      request.method,
      reply.statusCode,
      reply.elapsedTime,
    );
    done();
  });
}

type Loaded = { profile: UserProfile; result: CacheResult };

/** The signed-in user's profile, or 401 for a token no longer worth anything (session checked after). */
function acceptUser(
  loaded: { value: UserProfile | null; result: CacheResult },
  token: VerifiedToken,
): Loaded {
  const { value, result } = loaded;
  // Deleted, locked or unknown users hold a token that is no longer worth anything.
  if (!value || value.status !== 1) throw errors.invalidToken();
  // Sessions ended (password change, lock) bump the generation: older tokens stop working at once.
  if (value.session_version !== undefined && token.sv !== undefined && token.sv < value.session_version)
    throw errors.invalidToken();
  return { profile: value, result };
}

/** What the steps after the policy match share. */
interface Step {
  gw: GatewayCore;
  request: FastifyRequest;
  reply: FastifyReply;
  rule: CompiledRule;
  tenant: Tenant;
  method: string;
}

/** Steps 1-7; returns a promise only when a step must wait. */
function gate(gw: GatewayCore, request: FastifyRequest, reply: FastifyReply): void | Promise<void> {
  // 1. request id, base headers, tenant by Host (X-Forwarded-Host only from trusted proxies: fastify's trustProxy list).
  reply.header(REQUEST_ID_HEADER, request.id);
  baseSecurityHeaders(reply);
  // Refused targets (absolute-form, dot segments, encoded slashes, NUL...) go no further.
  // The decoded, normalised path the upstream will route (request-target.ts): policy is decided on it.
  const path = canonicalPath(request.raw);
  if (path === null) throw errors.badPath();
  if (!hasSingleHost(request.raw)) throw errors.duplicateHost();
  request.tenant = gw.tenants.resolve(request.hostname.toLowerCase());

  if (!path.startsWith('/api/') && path !== '/api') return;
  if (OPEN_PATHS.has(path)) {
    request.routeLabel = path;
    return;
  }
  reply.header('cache-control', 'no-store');
  if (!request.tenant) throw errors.unknownTenant();
  const method = request.method;

  // Bodies are streamed to the upstream: the limit is enforced on the declared length before anything is read.
  if (method !== 'GET' && method !== 'HEAD') {
    const length = request.headers['content-length'];
    if (length === undefined) {
      if (request.headers['transfer-encoding']) throw errors.lengthRequired();
    } else if (Number(length) > bodyLimit(path)) {
      throw errors.payloadTooLarge();
    }
  }

  const rule = gw.policy.match(method, path);
  request.routeLabel = rule.id;
  const tenant = request.tenant;

  if (rule.public) {
    request.call = { rule, actor: null, effective: null, impersonating: false, profileCache: undefined };
    gw.limits.checkPublic(request, reply);
    return;
  }

  // 2. authentication: the token's audience must be this tenant.
  const token = bearer(request);
  if (!token) throw errors.unauthenticated();
  const step: Step = { gw, request, reply, rule, tenant, method };
  // A merchant API key (issue 35.1) is an identity of its own, told from a JWT by its prefix.
  if (token.startsWith(API_KEY_PREFIX)) return apiKeyStep(step, token);
  // Verified tokens are answered from memory (until exp); a new one is verified once.
  const check = gw.verifier.cached(token, tenant.config.id);
  if (check === undefined)
    return gw.verifier.verify(token, tenant.config.id).then((c) => afterToken(step, c));
  return afterToken(step, check);
}

function afterToken(step: Step, check: TokenCheck): void | Promise<void> {
  const { gw, request, tenant } = step;
  if (!check.ok) {
    request.log.info({ reason: check.reason }, 'access token refused');
    throw errors.invalidToken();
  }
  return gw.profiles.with(tenant.config.id, check.token.userId, request.id, (loaded) =>
    afterProfile(step, check.token, loaded),
  );
}

function afterProfile(
  step: Step,
  token: VerifiedToken,
  loaded: { value: UserProfile | null; result: CacheResult },
): void | Promise<void> {
  const { profile: actor, result } = acceptUser(loaded, token);
  // Signed out (issue 20.9): in-process set fed by pub/sub; Redis-down behaviour in auth/revoked-sessions.ts.
  if (token.sid !== undefined) {
    const revoked = step.gw.sessions.check(step.tenant.config.id, token.sid);
    if (revoked === true) throw errors.invalidToken();
    if (revoked !== false)
      return revoked.then((r) => {
        if (r) throw errors.invalidToken();
        return afterSession(step, actor, result);
      });
  }
  return afterSession(step, actor, result);
}

function afterSession(step: Step, actor: UserProfile, actorResult: CacheResult): void | Promise<void> {
  const { gw, request, rule, tenant } = step;
  // 3. forced password update: only the password calls (and whoami, sign-out) go through.
  if (actor.must_update_password && !rule.passwordUpdate) throw passwordUpdateRequired();

  // 4. impersonation ('Login As').
  const target = request.headers[IMPERSONATE_HEADER];
  if (typeof target === 'string' && target.trim() !== '') {
    return impersonate(
      gw,
      tenant.config.id,
      tenant.config.client_kind,
      actor,
      target.trim(),
      request.id,
    ).then(({ profile, result }) => authorize(step, actor, profile, result, true));
  }
  return authorize(step, actor, actor, actorResult, false);
}

function authorize(
  step: Step,
  actor: UserProfile,
  effective: UserProfile,
  profileCache: CacheResult,
  impersonating: boolean,
): void {
  const { gw, request, reply, rule, tenant, method } = step;
  request.call = { rule, actor, effective, impersonating, profileCache };

  // 5-6. read-only and the policy table, for the effective user.
  const decision = decide(rule, method, effective, tenant.config);
  if (!decision.ok) {
    request.log.info(
      { rule: rule.id, reason: decision.reason, user: effective.id },
      'call refused by policy',
    );
    if (decision.reason === 'read-only') throw errors.readOnly();
    throw errors.forbidden();
  }

  // 7. rate limit per tenant + signed-in user.
  gw.limits.check('user', request, reply);
}

export function notFoundPage(reply: FastifyReply) {
  return reply
    .status(404)
    .type('text/html; charset=utf-8')
    .send(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1><p>There is no portal at this address.</p></body></html>',
    );
}

import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { INTERNAL_CONTEXT_HEADER, type InternalContext, type UserProfile } from '@portal/contracts';
import { verifyContext } from '@portal/core';

/**
 * Small upstreams with controlled behaviour for the gateway's own tests: a
 * user service that signs nothing but publishes a JWKS, answers whoami from a
 * table and records audit rows; services that echo what reached them. The
 * full-stack tests use the real services.
 */
export interface Signer {
  kid: string;
  privateKey: KeyObject;
  jwks: { keys: object[] };
  token(claims: Record<string, unknown>, header?: Record<string, unknown>): string;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export function ed25519Signer(kid = 'test-key-1'): Signer {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    kid,
    privateKey,
    jwks: { keys: [{ ...jwk, kid, alg: 'EdDSA', use: 'sig' }] },
    token(claims, header = {}) {
      const h = b64({ alg: 'EdDSA', typ: 'JWT', kid, ...header });
      const p = b64(claims);
      const s = sign(null, Buffer.from(`${h}.${p}`), privateKey).toString('base64url');
      return `${h}.${p}.${s}`;
    },
  };
}

export function claimsFor(userId: number, tenant: string, issuer = 'chargeback-portal', ttl = 900) {
  const now = Math.floor(Date.now() / 1000);
  return { sub: String(userId), aud: tenant, iss: issuer, iat: now, exp: now + ttl, username: `u${userId}` };
}

export function profile(id: number, overrides: Partial<UserProfile> = {}): UserProfile {
  return {
    id,
    username: `u${id}`,
    email: `u${id}@example.com`,
    fname: `First${id}`,
    lname: `Last${id}`,
    role: 'merchant_admin',
    roles: ['merchant_admin'],
    status: 1,
    is_federated: false,
    is_read_only: false,
    merchant: { id: 1000011, business_name: 'Blue Sky Outfitters', show_alerts_banner: false },
    features: [
      'dashboard',
      'chargebacks',
      'case-management',
      'users',
      'users-create',
      'users-edit',
      'profile',
      'settings',
    ].map((alias, i) => ({
      id: i + 1,
      alias,
    })),
    resources: [{ id: 1, alias: 'USERS', url: '/users' }],
    allow_resources: [],
    deny_resources: [],
    mids_allowed: [],
    mids_excluded: [],
    mids_count: 2,
    theme_variant: 1,
    must_update_password: false,
    impersonated_by: null,
    ...overrides,
  };
}

export interface Seen {
  path: string;
  method: string;
  headers: Record<string, unknown>;
  ctx: InternalContext | null;
  body: unknown;
}

/** A tiny HTTP server (node:http, so the tests need no framework of their own). */
export interface Fake {
  server: Server;
  url: string;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, body: Buffer, res: ServerResponse) => Promise<void> | void;

async function serve(handler: Handler): Promise<Fake> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      Promise.resolve(handler(req, Buffer.concat(chunks), res)).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    server,
    url,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { ...(text ? { 'content-type': 'application/json' } : {}), ...headers });
  res.end(text);
}

function parse(body: Buffer, contentType: string | undefined): unknown {
  if (!body.length) return undefined;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(body.toString('utf8'));
    } catch {
      return { invalid: true };
    }
  }
  return { bytes: body.length };
}

const ctxOf = (secret: string, h: unknown) => {
  const check = verifyContext(typeof h === 'string' ? h : undefined, secret);
  return check.ok ? check.context : null;
};

export interface FakeUserService extends Fake {
  profiles: Map<string, UserProfile>;
  audits: Array<{ ctx: InternalContext; body: Record<string, unknown> }>;
  whoamiCalls: number;
  seen: Seen[];
}

export async function fakeUserService(secret: string, signer: Signer): Promise<FakeUserService> {
  const state = { profiles: new Map(), audits: [], whoamiCalls: 0, seen: [] } as unknown as FakeUserService;
  const fake = await serve(async (req, raw, res) => {
    const path = req.url!.split('?')[0]!;
    const ctx = ctxOf(secret, req.headers[INTERNAL_CONTEXT_HEADER]);
    const body = parse(raw, req.headers['content-type']);
    if (path === '/users/.well-known/jwks.json') return send(res, 200, signer.jwks);
    if (path === '/health' || path.startsWith('/health/'))
      return send(res, 200, { status: 'ok', service: 'user', checks: { postgres: 'up', redis: 'up' } });
    if (!ctx) return send(res, 401, { message: 'Calls must come through the gateway.' });
    if (path === '/users/whoami' && req.method === 'POST') {
      state.whoamiCalls++;
      const p = state.profiles.get(`${ctx.tenant}:${ctx.user_id}`);
      return p ? send(res, 200, p) : send(res, 404, { message: 'Unknown user' });
    }
    // 'Login As' (the real user service checks the subtree): here any known user of the caller's tenant.
    const loginAs = /^\/users\/users\/(\d+)\/impersonation$/.exec(path);
    if (loginAs && req.method === 'GET')
      return send(res, 200, { allowed: state.profiles.has(`${ctx.tenant}:${loginAs[1]}`) });
    // The gateway's audit batches (gateway/src/audit): one entry per audited call.
    if (path === '/users/audit/batch' && req.method === 'POST') {
      const entries = (body as { entries: Record<string, unknown>[] }).entries;
      for (const entry of entries) state.audits.push({ ctx, body: entry });
      return send(res, 200, { stored: entries.length });
    }
    const seen = { path: req.url!, method: req.method!, headers: req.headers, ctx, body };
    state.seen.push(seen);
    return send(
      res,
      200,
      seen,
      path.endsWith('/signin')
        ? { 'set-cookie': 'portal_rt=abc; Path=/api/users/auth; HttpOnly; SameSite=Strict' }
        : {},
    );
  });
  return Object.assign(state, fake);
}

export interface FakeEchoService extends Fake {
  seen: Seen[];
  calls: Map<string, number>;
  /** Milliseconds /slow waits. */
  delayMs: number;
}

export async function fakeEchoService(secret: string, name: string): Promise<FakeEchoService> {
  const state = { seen: [], calls: new Map(), delayMs: 2000 } as unknown as FakeEchoService;
  const fake = await serve(async (req, raw, res) => {
    const path = req.url!.split('?')[0]!;
    if (path === '/health' || path.startsWith('/health/'))
      return send(res, 200, { status: 'ok', service: name, checks: { postgres: 'up', redis: 'up' } });
    state.calls.set(req.url!, (state.calls.get(req.url!) ?? 0) + 1);
    if (path.endsWith('/slow')) await new Promise((r) => setTimeout(r, state.delayMs));
    if (path.endsWith('/fail503')) return send(res, 503, { message: 'busy' });
    if (path.endsWith('/redirect'))
      return send(res, 302, undefined, { location: `${fake.url}/cm/elsewhere` });
    const ctx = ctxOf(secret, req.headers[INTERNAL_CONTEXT_HEADER]);
    const seen = {
      path: req.url!,
      method: req.method!,
      headers: req.headers,
      ctx,
      body: parse(raw, req.headers['content-type']),
    };
    state.seen.push(seen);
    if (path.startsWith('/cm/gen/'))
      return send(res, 200, {
        data: [{ id: 1, name: `lookup ${req.url}` }],
        pagination: { total: 1, limit: 999, start: 0 },
      });
    return send(res, 200, seen);
  });
  return Object.assign(state, fake);
}

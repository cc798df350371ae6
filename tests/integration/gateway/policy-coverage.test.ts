import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  GATEWAY_HEALTH_PATH,
  GATEWAY_LIVE_PATH,
  GATEWAY_READY_PATH,
  SERVICE_HEALTH_PATH,
  SERVICE_LIVE_PATH,
  SERVICE_READY_PATH,
} from '@portal/contracts';
import { buildServiceApp, type ServiceName } from '@portal/core';
import { SERVICES } from '@portal/runner';
import { DENY, Policy } from '../../../gateway/src/policy/policy';
import { POLICY } from '../../../gateway/src/policy/policy-table';
import { ROUTES } from '../../../gateway/src/proxy/proxy';
import { startGatewayHarness, type GatewayHarness } from '../../support/gateway-harness';
import { routesOf, type RegisteredRoute } from '../../support/route-recorder';
import { profile } from './fakes';

// Every Fastify app built in this file records its routes (onRoute), hidden ones included.
vi.mock('fastify', async (importOriginal) =>
  (await import('../../support/route-recorder')).recordingFastify(await importOriginal()),
);

/**
 * Issue 30 item 5: every route a service registers has a row in the gateway's
 * policy table, and every row a route. The routes come from the real apps (each
 * service as buildServiceApp builds it, and the gateway's own answers), read
 * with an onRoute hook, so a route added tomorrow fails here until its row is
 * written; a call no row names is refused (default deny, GET included).
 *
 * A route is matched as the gateway matches a call: its path under /api with
 * `1` for each parameter, through Policy.match (first row of the method wins).
 * A row is stale when it is the row picked for no route of its method (no
 * route, or every route meets an earlier row first). Internal routes (tagged
 * 'internal', under an `internal` segment, or in UPSTREAM_ONLY) must have no
 * row, and the gateway must refuse them without calling the upstream.
 */

const SERVICE_NAMES: readonly ServiceName[] = ['case', 'user', 'docs', 'builder'];

/**
 * Service routes the gateway never exposes, besides those tagged 'internal' or under an `internal`
 * path segment: calls the gateway itself makes straight to the upstream.
 */
const UPSTREAM_ONLY = new Set([
  // The JWKS the gateway verifies access tokens with (app.ts).
  'GET /users/.well-known/jwks.json',
  // The gateway's audit batches (gateway/src/audit), signed as a system call.
  'POST /users/audit/batch',
]);

/** Service routes no gateway prefix leads to: called by the runner and the gateway only. */
const NOT_ROUTED = new Set([SERVICE_HEALTH_PATH, SERVICE_LIVE_PATH, SERVICE_READY_PATH, '/openapi.json']);

/**
 * Gateway paths answered before the policy table (pipeline.ts OPEN_PATHS, design §4; the probes ahead
 * of the pipeline, health/health-routes.ts).
 */
const BEFORE_POLICY = new Set([GATEWAY_HEALTH_PATH, GATEWAY_LIVE_PATH, GATEWAY_READY_PATH, '/api/tenant']);

interface ApiRoute {
  /** Who registers it: a service name or 'gateway'. */
  origin: string;
  method: string;
  /** As the browser calls it: /api/... with the route's `:x` and `*`. */
  path: string;
  /** As registered, for the messages. */
  registered: string;
}

const isInternal = (r: RegisteredRoute) =>
  r.tags.includes('internal') ||
  /(^|\/)internal(\/|$)/.test(r.url) ||
  UPSTREAM_ONLY.has(`${r.method} ${r.url}`);

/** The gateway path of a service route (design §4 step 9, proxy.ts ROUTES), or null when none leads there. */
function gatewayPath(service: ServiceName, url: string): string | null {
  for (const r of ROUTES) {
    if (r.upstream !== service) continue;
    if (url === r.rewritePrefix || url.startsWith(`${r.rewritePrefix}/`))
      return (r.prefix + url.slice(r.rewritePrefix.length)).replace(/(.)\/$/, '$1');
  }
  return null;
}

/** A concrete path of a route pattern: `1` for each `:x`, `x` for the `*`. */
const sample = (path: string) =>
  path
    .split('/')
    .map((s) => (s.startsWith(':') ? '1' : s === '*' ? 'x' : s))
    .join('/');

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const label = (r: ApiRoute) =>
  `${key(r)}  (${r.origin}${r.registered !== r.path ? ` ${r.method} ${r.registered}` : ''})`;

let h: GatewayHarness;
/** Every route the gateway exposes under /api and the policy table governs. */
const exposed: ApiRoute[] = [];
/** Service routes the gateway must refuse. */
const internal: ApiRoute[] = [];
/** Service routes no gateway prefix leads to. */
const unrouted: string[] = [];
const policy = new Policy();
const ADMIN = 1000001;

beforeAll(async () => {
  h = await startGatewayHarness({
    profiles: {
      [`acme:${ADMIN}`]: profile(ADMIN, {
        role: 'cb911_admin',
        roles: ['cb911_admin'],
        merchant: { id: 1000001, business_name: 'Root', show_alerts_banner: false },
      }),
    },
  });
  const seen = new Set<string>();
  const add = (list: ApiRoute[], route: ApiRoute) => {
    if (seen.has(`${route.origin} ${key(route)}`)) return;
    seen.add(`${route.origin} ${key(route)}`);
    list.push(route);
  };

  for (const service of SERVICE_NAMES) {
    const app = await buildServiceApp(SERVICES[service].definition, h.t.deps);
    try {
      await app.ready();
      for (const r of routesOf(app)) {
        if (r.method === 'HEAD' || r.method === 'OPTIONS') continue;
        const path = gatewayPath(service, r.url);
        if (path === null) {
          if (!NOT_ROUTED.has(r.url)) unrouted.push(`${service} ${r.method} ${r.url}`);
          continue;
        }
        const route = { origin: service, method: r.method, path, registered: r.url };
        add(isInternal(r) ? internal : exposed, route);
      }
    } finally {
      await app.close();
    }
  }

  // The gateway's own answers under /api; its proxy routes (every method of `prefix` and `prefix/*`) are
  // the services' routes above.
  const proxied = new Set([...ROUTES.map((r) => r.prefix), '/api/users/auth'].flatMap((p) => [p, `${p}/*`]));
  for (const r of routesOf(h.gateway)) {
    if (r.method === 'HEAD' || r.method === 'OPTIONS') continue;
    if (!r.url.startsWith('/api/') || proxied.has(r.url) || BEFORE_POLICY.has(r.url)) continue;
    add(exposed, { origin: 'gateway', method: r.method, path: r.url, registered: r.url });
  }
});

afterAll(async () => {
  await h?.close();
});

describe('the policy table covers every route (issue 30.5)', () => {
  it('reads the routes of every service and of the gateway', () => {
    for (const origin of [...SERVICE_NAMES, 'gateway'])
      expect(exposed.filter((r) => r.origin === origin).length, origin).toBeGreaterThan(0);
    expect(exposed.length).toBeGreaterThan(150);
    expect(internal.length).toBeGreaterThan(0);
    // A service route under no gateway prefix is unreachable: a new prefix needs its ROUTES entry.
    expect(unrouted, `service routes no gateway prefix leads to:\n${unrouted.join('\n')}`).toEqual([]);
  });

  it('has a row for every route, of its method', () => {
    const missing = exposed
      .filter((r) => policy.match(r.method, sample(r.path)) === DENY)
      .map(label)
      .sort();
    expect(missing, `routes without a policy row:\n${missing.join('\n')}\n`).toEqual([]);
  });

  it('has a route for every row', () => {
    // A row (per method) lives when it is the row the gateway picks for some route: rows no route
    // reaches, and rows every route of theirs meets an earlier row first, are stale.
    const picked = new Set(exposed.map((r) => `${r.method} ${policy.match(r.method, sample(r.path)).id}`));
    const stale = POLICY.flatMap((rule) =>
      rule.methods
        .filter((m) => !picked.has(`${m} ${rule.methods.join(',')} ${rule.path}`))
        .map((m) => `${m} ${rule.path}`),
    );
    expect(stale, `policy rows no registered route reaches:\n${stale.join('\n')}\n`).toEqual([]);
  });

  it('has no row for an internal route, and the gateway refuses them all', async () => {
    const opened = internal
      .filter((r) => policy.match(r.method, sample(r.path)) !== DENY)
      .map((r) => `${label(r)} -> ${policy.match(r.method, sample(r.path)).id}`);
    expect(opened, `internal routes a policy row opens:\n${opened.join('\n')}\n`).toEqual([]);

    const before = h.user.seen.length + h.cases.seen.length;
    for (const r of internal) {
      const answer = await h.inject({
        method: r.method as 'GET',
        url: sample(r.path),
        headers: { ...h.auth(ADMIN), ...(r.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
        ...(r.method === 'GET' ? {} : { payload: '{}' }),
      });
      expect(answer.statusCode, label(r)).toBe(403);
    }
    // Nothing reached an upstream.
    expect(h.user.seen.length + h.cases.seen.length).toBe(before);
  });

  it('refuses a call no row names, whatever its method (default deny)', async () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const answer = await h.inject({ method, url: '/api/cm/no-such-call', headers: h.auth(ADMIN) });
      expect(answer.statusCode, method).toBe(403);
    }
  });

  it('answers the public gateway calls before the policy table, without a token', async () => {
    for (const path of BEFORE_POLICY) {
      const answer = await h.inject({ url: path, headers: { host: 'acme.localhost' } });
      expect([200, 503], path).toContain(answer.statusCode);
    }
  });
});

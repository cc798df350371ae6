import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, demoTenant, demoUserId } from '@portal/contracts';
import { contextWithoutUser } from '@portal/core';
import { SERVICES, startStack, type Stack } from '@portal/runner';
import { contextHeaders } from '../../support/context';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { demoCtx, type Ctx } from '../case/case-app';
import {
  buildRecordedApp,
  mutations,
  randomRequests,
  type FuzzRequest,
  type FuzzRoute,
} from './fuzz-support';

/**
 * Issue 20 item 5: no input reaches the database unchecked. Every route of
 * every service (enumerated from the apps themselves, so a new route is
 * fuzzed the day it is added) gets each hostile value in each field of its
 * params, querystring and body, as a provider-staff user, a merchant user and
 * a signed-out caller; then random requests drawn by fast-check (fixed seed).
 * Any 5xx fails, listing every route and input that caused one; every 4xx
 * must be `{statusCode, error, message}`.
 */

const SERVICE_NAMES = ['case', 'user', 'docs', 'builder'] as const;
const TENANT = 'acme';
const RANDOM_RUNS_PER_ROUTE = 12;
const SEED = 20_5;

let t: TestEnv;
let stack: Stack;
const apps = new Map<string, FastifyInstance>();
const routes: FuzzRoute[] = [];
/** A real id per service so that baselines reach the database (a case id; a user id). */
const ids = new Map<string, number>();

const CONTEXTS: Record<string, Ctx> = {
  staff: demoCtx(TENANT, 'admin'),
  merchant: demoCtx(TENANT, 'merchant.user'),
  public: { ...contextWithoutUser(TENANT, 'fuzz', 'public') },
};

interface Failure {
  who: string;
  route: string;
  input: string;
  status: number;
  body: string;
}

async function send(service: string, who: string, req: FuzzRequest): Promise<Failure | null> {
  const app = apps.get(service)!;
  let response: Awaited<ReturnType<FastifyInstance['inject']>>;
  try {
    response = await app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: {
        ...contextHeaders(t.deps.contextSecret, CONTEXTS[who]),
        ...(req.payload !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(req.payload !== undefined ? { payload: req.payload } : {}),
    });
  } catch (error) {
    return {
      who,
      route: `${req.method} ${req.url.slice(0, 120)}`,
      input: req.label,
      status: 0,
      body: `inject failed: ${(error as Error).message}`,
    };
  }
  const failure = (why: string) => ({
    who,
    route: `${req.method} ${req.url.slice(0, 120)}`,
    input: req.label,
    status: response.statusCode,
    body: `${why} ${response.body.slice(0, 200)}`,
  });
  if (response.statusCode >= 500) return failure('5xx:');
  if (response.statusCode >= 400 && (response.headers['content-type'] ?? '').toString().includes('json')) {
    const body = JSON.parse(response.body) as Record<string, unknown>;
    if (
      body.statusCode !== response.statusCode ||
      typeof body.error !== 'string' ||
      typeof body.message !== 'string'
    ) {
      return failure('error shape:');
    }
  }
  return null;
}

function report(failures: Failure[]): string {
  return failures.map((f) => `[${f.who}] ${f.status} ${f.route} <- ${f.input}\n    ${f.body}`).join('\n');
}

beforeAll(async () => {
  t = await createTestEnv({ LOG_LEVEL: 'fatal' });
  // The services call each other (whoami asks the case service, ...): run the
  // stack so those calls succeed, and fuzz apps built with its upstream URLs.
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  const env = {
    ...t.deps.env,
    CASE_SERVICE_URL: stack.serviceUrls.case,
    USER_SERVICE_URL: stack.serviceUrls.user,
    DOCS_SERVICE_URL: stack.serviceUrls.docs,
    BUILDER_SERVICE_URL: stack.serviceUrls.builder,
  };
  for (const name of SERVICE_NAMES) {
    const built = await buildRecordedApp(name, SERVICES[name].definition, { ...t.deps, env });
    apps.set(name, built.app);
    routes.push(...built.routes);
  }
  const { rows } = await t.db.query<{ id: string }>(
    `select id from cases.cases where tenant_id = $1 order by id limit 1`,
    [TENANT],
  );
  const caseId = Number(rows[0]!.id);
  const agent = demoUserId(
    demoTenant(TENANT),
    DEMO_USERS.find((u) => u.username === 'agent')!,
  );
  ids.set('case', caseId);
  ids.set('docs', caseId);
  ids.set('builder', caseId);
  ids.set('user', agent);
});

afterAll(async () => {
  for (const app of apps.values()) await app.close();
  await stack?.close();
  await t?.close();
});

describe('schema-driven fuzz of every service route', () => {
  it('enumerates the routes of every service', () => {
    const byService = Object.fromEntries(
      SERVICE_NAMES.map((s) => [s, routes.filter((r) => r.service === s).length]),
    );
    expect(byService.case).toBeGreaterThan(20);
    expect(byService.user).toBeGreaterThan(20);
    expect(byService.docs).toBeGreaterThan(0);
  });

  // One test per service: each has its own time budget as the route count grows.
  it.each(SERVICE_NAMES)(
    'answers no hostile field value with a 5xx: %s service',
    { timeout: 300_000 },
    async (service) => {
      const failures: Failure[] = [];
      let count = 0;
      const slow: string[] = [];
      const seenQueries = new Map<string, number>();
      // Exports last: a shared querystring is fuzzed in full on the first route that has it (the cheap list).
      const ordered = routes
        .filter((r) => r.service === service)
        .sort((a, b) => Number(/\.(csv|xlsx)$/.test(a.url)) - Number(/\.(csv|xlsx)$/.test(b.url)));
      for (const route of ordered) {
        const started = Date.now();
        const requests = mutations(route, ids.get(route.service)!, seenQueries);
        const isPublic = route.url.includes('/auth/');
        for (const [i, req] of requests.entries()) {
          // Every input as provider staff; every other one as a merchant user
          // (scoped queries); signed-out only on the public routes and baselines.
          const who = [
            'staff',
            ...(i % 2 === 0 ? ['merchant'] : []),
            ...(isPublic || i === 0 ? ['public'] : []),
          ];
          for (const w of who) {
            count++;
            const failure = await send(route.service, w, req);
            if (failure) failures.push(failure);
          }
        }
        const ms = Date.now() - started;
        if (ms > 1000) slow.push(`  ${route.method} ${route.url}: ${requests.length} inputs, ${ms} ms`);
      }
      console.info(
        `fuzz ${service}: ${ordered.length} routes, ${count} hostile requests, ${failures.length} failures\n${slow.join('\n')}`,
      );
      if (failures.length) console.info(report(failures));
      expect(failures, report(failures)).toEqual([]);
    },
  );

  it.each(SERVICE_NAMES)(
    'answers no random request with a 5xx (fast-check, fixed seed): %s service',
    { timeout: 180_000 },
    async (service) => {
      const failures: Failure[] = [];
      let index = 0;
      for (const route of routes.filter((r) => r.service === service)) {
        const who = Object.keys(CONTEXTS)[index++ % 3]!;
        await fc.assert(
          fc.asyncProperty(randomRequests(route, ids.get(route.service)!), async (req) => {
            const failure = await send(route.service, who, req);
            if (failure) failures.push(failure);
            return true;
          }),
          { seed: SEED, numRuns: RANDOM_RUNS_PER_ROUTE },
        );
      }
      if (failures.length) console.info(report(failures));
      expect(failures, report(failures)).toEqual([]);
    },
  );
});

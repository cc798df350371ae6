import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_HEALTH_PATH, INTERNAL_CONTEXT_HEADER, SERVICE_HEALTH_PATH } from '@portal/contracts';
import { signContext } from '@portal/core';
import { startStack, type Stack } from '@portal/runner';
import { contextHeaders } from '../../support/context';
import { createTestEnv, type TestEnv } from '../../support/test-env';

let t: TestEnv;
let stack: Stack;
beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
});
afterAll(async () => {
  await stack.close();
  await t.close();
});

describe('the full stack on real Postgres and Redis', () => {
  it('reports every dependency up on /api/health', async () => {
    const response = await fetch(`${stack.gatewayUrl}${GATEWAY_HEALTH_PATH}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      checks: { redis: 'up', postgres: 'up', case: 'up', user: 'up', docs: 'up', builder: 'up' },
    });
  });

  it('names what is down with a 503', async () => {
    await stack.services.builder.close();
    const response = await fetch(`${stack.gatewayUrl}${GATEWAY_HEALTH_PATH}`);
    expect(response.status).toBe(503);
    const body = (await response.json()) as { checks: Record<string, string>; down: string[] };
    expect(body.checks.builder).toBe('down');
    expect(body.down).toEqual(['builder']);
  });

  it('each service answers its own health and OpenAPI document without a context', async () => {
    for (const name of ['case', 'user', 'docs'] as const) {
      const health = await fetch(`${stack.serviceUrls[name]}${SERVICE_HEALTH_PATH}`);
      expect(await health.json()).toEqual({
        status: 'ok',
        service: name,
        checks: { postgres: 'up', redis: 'up' },
      });
    }
    const openapi = (await (await fetch(`${stack.serviceUrls.user}/openapi.json`)).json()) as {
      openapi: string;
    };
    expect(openapi.openapi).toMatch(/^3\./);
  });

  it('a service refuses a call without, or with a forged, internal context', async () => {
    const none = await fetch(`${stack.serviceUrls.case}/cm/anything`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ message: 'Calls must come through the gateway.' });
    const forged = signContext(
      {
        tenant: 'acme',
        user_id: 1,
        actor_id: 1,
        username: 'x',
        roles: ['cb911_admin'],
        merchant_id: null,
        read_only: false,
        mids_allowed: [],
        mids_excluded: [],
        request_id: 'r',
        kind: 'user',
      },
      'not-the-secret-not-the-secret-not-the-secret',
    );
    const bad = await fetch(`${stack.serviceUrls.case}/cm/anything`, {
      headers: { [INTERNAL_CONTEXT_HEADER]: forged },
    });
    expect(bad.status).toBe(401);
    const good = await fetch(`${stack.serviceUrls.case}/cm/anything`, {
      headers: contextHeaders(t.deps.contextSecret),
    });
    expect(good.status).toBe(404);
  });

  it('carries the caller request id through', async () => {
    const id = randomUUID();
    const response = await fetch(`${stack.serviceUrls.case}/health`, { headers: { 'x-request-id': id } });
    expect(response.headers.get('x-request-id')).toBe(id);
  });

  it('serves the web app for paths without an extension and 404 for missing assets', async () => {
    const page = await fetch(`${stack.gatewayUrl}/dashboard`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('<div id="root">');
    const asset = await fetch(`${stack.gatewayUrl}/assets/missing-file.js`);
    expect(asset.status).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { resolveDocsLinkSecret } from '../../../services/docs/src/files/signed-links';
import { openObjectStore, type ObjectStore } from '@portal/storage';
import { callGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { rawMultipart, send } from './multipart';

/**
 * The filesystem store's form and link through the real gateway: the body
 * streams through the proxy, the docs service sees the tenant of the Host.
 *
 * Today's policy table lets `POST /api/docs/objects/*` through only with a
 * bearer token of a user with a document feature, so these calls carry one.
 * With the public rows the lead is asked for (POST /api/docs/objects/upload,
 * GET /api/docs/objects/download) the same calls pass without it, as they do
 * on S3; the token is then simply not looked at.
 */
let t: TestEnv;
let stack: Stack;
let store: ObjectStore;
let token: string;

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  store = await openObjectStore(t.env, t.deps.log, { linkSecret: resolveDocsLinkSecret(t.env) });
  const r = await callGateway(stack.gatewayUrl, 'acme', 'POST', '/api/users/auth/signin', {
    body: { username: 'manager', password: DEMO_PASSWORD },
  });
  expect(r.status).toBe(200);
  token = r.json.access_token as string;
});
afterAll(async () => {
  await store?.close();
  await stack?.close();
  await t?.close();
});

const viaGateway = (
  path: string,
  tenant: string,
  init: { method?: string; body?: Buffer; type?: string } = {},
) =>
  send(`${stack.gatewayUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      host: `${tenant}.localhost`,
      authorization: `Bearer ${token}`,
      ...(init.type ? { 'content-type': init.type } : {}),
    },
    ...(init.body ? { body: init.body } : {}),
  });

describe('object store through the gateway (filesystem store)', () => {
  it('stores a posted form, then serves it by signed link', async () => {
    const link = await store.createUploadLink({
      tenant: 'acme',
      area: 'representments',
      filename: 'evidence.pdf',
      contentType: 'application/pdf',
      maxBytes: 2 * 1024 * 1024,
    });
    const data = Buffer.alloc(1536 * 1024, 9); // past the gateway's and the service's 1 MiB default
    const form = rawMultipart([
      ...Object.entries(link.fields).map(([name, value]) => ({ name, value })),
      { name: 'file', file: { data, type: 'application/pdf' } },
    ]);
    const posted = await viaGateway(link.url, 'acme', {
      method: 'POST',
      body: form.body,
      type: form.contentType,
    });
    expect(posted.status).toBe(204);
    expect(await store.head('acme', link.fields.key!)).toEqual({
      size: data.length,
      contentType: 'application/pdf',
    });

    const url = await store.downloadLink('acme', link.fields.key!, { filename: 'evidence.pdf' });
    const got = await viaGateway(url, 'acme');
    expect(got.status).toBe(200);
    expect(got.body.equals(data)).toBe(true);
    expect(String(got.headers['content-disposition'])).toMatch(/^attachment; filename="evidence.pdf"/);
  });

  it("refuses one tenant's form and link on another tenant's host", async () => {
    const link = await store.createUploadLink({
      tenant: 'northbank',
      area: 'templates',
      filename: 'a.pdf',
      contentType: 'application/pdf',
      maxBytes: 1024,
    });
    const form = rawMultipart([
      ...Object.entries(link.fields).map(([name, value]) => ({ name, value })),
      { name: 'file', file: { data: Buffer.from('x'), type: 'application/pdf' } },
    ]);
    // The acme token on the acme host: the form names northbank.
    const posted = await viaGateway(link.url, 'acme', {
      method: 'POST',
      body: form.body,
      type: form.contentType,
    });
    expect(posted.status).toBe(403);
    expect(await store.head('northbank', link.fields.key!)).toBeNull();
  });
});

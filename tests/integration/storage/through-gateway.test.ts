import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoMerchantId, demoTenant } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { resolveDocsLinkSecret } from '../../../services/docs/src/files/signed-links';
import { textPdf } from '../../../services/docs/src/seed/seed-templates';
import { newObjectKey, openObjectStore, S3ObjectStore, type ObjectStore } from '@portal/storage';
import { callGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { rawMultipart, send } from './multipart';
import { startS3rver, type S3rverEndpoint } from './s3rver';

/**
 * The filesystem store's form and link through the real gateway: the body
 * streams through the proxy, the docs service sees the tenant of the Host.
 * Then the S3 store (s3rver) behind the same stack: the services hand out
 * forms and links through the gateway, the browser uses them on the store.
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

const signIn = async (gatewayUrl: string, tenant: string, username: string) => {
  const r = await callGateway(gatewayUrl, tenant, 'POST', '/api/users/auth/signin', {
    body: { username, password: DEMO_PASSWORD },
  });
  expect(r.status).toBe(200);
  return r.json.access_token as string;
};

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
  beforeAll(async () => {
    t = await createTestEnv();
    stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
    store = await openObjectStore(t.env, t.deps.log, { linkSecret: resolveDocsLinkSecret(t.env) });
    token = await signIn(stack.gatewayUrl, 'acme', 'manager');
  });
  afterAll(async () => {
    await store?.close();
    await stack?.close();
    await t?.close();
  });

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

describe('object store through the gateway (S3 store, s3rver)', () => {
  const BUCKET = 'portal-docs-test';
  let s3: S3rverEndpoint | undefined;
  let t3: TestEnv;
  let stack3: Stack;
  let store3: ObjectStore;
  const tokens = new Map<string, string>();
  const api = (tenant: string, user: string, method: string, path: string, body?: unknown) =>
    callGateway(stack3.gatewayUrl, tenant, method, path, { token: tokens.get(`${tenant}:${user}`), body });

  beforeAll(async () => {
    s3 = await startS3rver();
    t3 = await createTestEnv({
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    stack3 = await startStack(t3.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
    store3 = await openObjectStore(t3.env, t3.deps.log);
    expect(store3).toBeInstanceOf(S3ObjectStore);
    for (const [tenant, user] of [
      ['acme', 'merchant.admin'],
      ['acme', 'manager'],
      ['northbank', 'manager'],
    ] as const)
      tokens.set(`${tenant}:${user}`, await signIn(stack3.gatewayUrl, tenant, user));
  });
  afterAll(async () => {
    await store3?.close();
    await stack3?.close();
    await t3?.close();
    await s3?.stop();
  });

  it("hands out the store's own form; the service takes in what the browser posted there", async () => {
    const A1 = demoMerchantId(demoTenant('acme'), 'merchantA1');
    const link = await api(
      'acme',
      'merchant.admin',
      'GET',
      `/api/docs/templates/upload-link?merchant_id=${A1}&filename=proof.pdf&content_type=application%2Fpdf`,
    );
    expect(link.status, JSON.stringify(link.json)).toBe(200);
    // Straight to the store, past the gateway, as a browser posts an S3 form.
    expect(link.json.url).toBe(`${s3!.endpoint}/${BUCKET}`);
    const fields = link.json.fields as Record<string, string>;
    const pdf = await textPdf('Proof of shipping', [['one'], ['two']]);
    const form = rawMultipart([
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'file', file: { data: pdf, type: 'application/pdf' } },
    ]);
    const posted = await send(link.json.url as string, {
      method: 'POST',
      headers: { 'content-type': form.contentType },
      body: form.body,
    });
    expect(posted.status).toBe(204);

    // The docs service reads the stored bytes back from S3 (type check, page count).
    const created = await api('acme', 'merchant.admin', 'POST', '/api/docs/templates', {
      merchant_id: A1,
      s3_key: fields.key,
      name: 'Proof of shipping',
      file_name: 'proof.pdf',
      content_type: 'application/pdf',
      size: pdf.length,
      template_type: 1,
      pages: 2,
      mid_ids: [],
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect((created.json.file as { pages: number; size: number }).pages).toBe(2);
    expect(await store3.head('acme', fields.key!)).toEqual({
      size: pdf.length,
      contentType: 'application/pdf',
    });
  });

  it("hands out a signed link to the store for the tenant's file, and none for another tenant", async () => {
    const key = newObjectKey('acme', 'exports', 'cases 2026-01.csv');
    await store3.put('acme', key, 'id,amount\n1,2.00\n', { contentType: 'text/csv' });
    const r = await api('acme', 'manager', 'GET', `/api/docs/downloadable?loc=${encodeURIComponent(key)}`);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const url = r.json.url as string;
    expect(url.startsWith(`${s3!.endpoint}/${BUCKET}/`)).toBe(true);
    const got = await send(url);
    expect(got.status).toBe(200);
    expect(got.body.toString()).toBe('id,amount\n1,2.00\n');
    expect(String(got.headers['content-disposition'])).toMatch(/^attachment; filename="cases_2026-01.csv"/);

    const theirs = await api(
      'northbank',
      'manager',
      'GET',
      `/api/docs/downloadable?loc=${encodeURIComponent(key)}`,
    );
    expect(theirs.status).toBe(404);
  });

  it("serves none of the filesystem store's routes: forms are the store's own", async () => {
    const form = rawMultipart([
      { name: 'key', value: newObjectKey('acme', 'templates', 'a.pdf') },
      { name: 'file', file: { data: Buffer.from('x'), type: 'application/pdf' } },
    ]);
    const posted = await send(`${stack3.gatewayUrl}/api/docs/objects/upload`, {
      method: 'POST',
      headers: {
        host: 'acme.localhost',
        authorization: `Bearer ${tokens.get('acme:manager')}`,
        'content-type': form.contentType,
      },
      body: form.body,
    });
    // The docs service has no such route with S3 (services/docs/src/objects/object-routes.ts).
    expect(posted.status).toBe(404);
    expect(posted.body.toString()).toMatch(/not found/i);
  });
});

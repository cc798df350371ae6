import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOWNLOAD_MESSAGES } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { newObjectKey, openObjectStore, type ObjectStore } from '@portal/storage';
import { resolveDocsLinkSecret } from '../../../services/docs/src/files/signed-links';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { DocsClient } from './docs-helpers';

/**
 * GET /docs/downloadable?loc= (the download page, spec 2 §2.10): loc is an
 * object key of the caller's tenant in a downloadable area (exports,
 * case-updater); the answer is a short-lived link and the file name.
 */
let t: TestEnv;
let stack: Stack;
let store: ObjectStore;
let c: DocsClient;
let exportKey: string;
let northbankKey: string;
const CSV = 'id,verdict\n1,Win\n';

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  store = await openObjectStore(t.env, t.deps.log, { linkSecret: resolveDocsLinkSecret(t.env) });
  c = new DocsClient(stack);
  await c.signIn('acme', 'merchant.user');
  await c.signIn('acme', 'readonly');
  exportKey = newObjectKey('acme', 'exports', 'cases-2026-01.csv');
  await store.put('acme', exportKey, CSV, { contentType: 'text/csv' });
  northbankKey = newObjectKey('northbank', 'exports', 'cases.csv');
  await store.put('northbank', northbankKey, CSV, { contentType: 'text/csv' });
});
afterAll(async () => {
  await store?.close();
  await stack?.close();
  await t?.close();
});

const get = (loc: string | null, user = 'merchant.user') =>
  c.api(
    'acme',
    user,
    'GET',
    `/api/docs/downloadable${loc === null ? '' : `?loc=${encodeURIComponent(loc)}`}`,
  );

describe('GET /docs/downloadable', () => {
  it('answers a short-lived link to a stored export of the tenant', async () => {
    for (const user of ['merchant.user', 'readonly']) {
      const r = await get(exportKey, user);
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      expect(r.json.filename).toBe('cases-2026-01.csv');
      const file = await c.download('acme', r.json.url as string);
      expect(file.status).toBe(200);
      expect(file.body.toString('utf8')).toBe(CSV);
      expect(String(file.headers['content-disposition'])).toContain('attachment');
    }
  });

  it.each([
    ['no loc', null],
    ['an empty loc', ''],
    ['a path', '../../etc/passwd'],
    ['a URL', 'https://evil.example/x.csv'],
    ['a key of another area', 'acme/templates/00000000-0000-4000-8000-000000000001/refund-policy.pdf'],
  ])('refuses %s with 400 Invalid url provided.', async (_name, loc) => {
    const r = await get(loc);
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(DOWNLOAD_MESSAGES.invalidUrl);
  });

  it("answers 404 for another tenant's key and a key that names nothing", async () => {
    expect((await get(northbankKey)).status).toBe(404);
    expect((await get('acme/exports/00000000-0000-4000-8000-00000000beef/gone.csv')).status).toBe(404);
  });

  it('needs a signed-in user', async () => {
    expect((await get(exportKey, 'nobody')).status).toBe(401);
  });
});

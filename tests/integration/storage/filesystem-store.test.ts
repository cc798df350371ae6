import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServiceApp } from '@portal/core';
import { docsService } from '../../../services/docs/src/index';
import { resolveDocsLinkSecret } from '../../../services/docs/src/files/signed-links';
import {
  deriveObjectSecret,
  DOWNLOAD_CSP,
  FilesystemObjectStore,
  FS_DOWNLOAD_URL,
  FS_UPLOAD_URL,
  openObjectStore,
} from '@portal/storage';
import { contextHeaders } from '../../support/context';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { objectStoreContract, type Harness } from './contract';
import { rawMultipart, send } from './multipart';

/**
 * The object store (design §10, issue 11.4) against its contract: the
 * filesystem store through the docs service's real routes (the same app the
 * runner starts, listening on a port, posted to with fetch + FormData). The
 * S3 store runs the same contract in s3-store.test.ts.
 */
let t: TestEnv;
let docs: FastifyInstance;
let docsUrl: string;
let fsStore: FilesystemObjectStore;

const incomingDir = () => join(t.env.DATA_DIR, 'objects', '.incoming');

beforeAll(async () => {
  t = await createTestEnv();
  docs = await buildServiceApp(docsService, t.deps);
  docsUrl = await docs.listen({ port: 0, host: '127.0.0.1' });
  // A second handle on the docs service's store: same DATA_DIR, same secret.
  const opened = await openObjectStore(t.env, t.deps.log, { linkSecret: resolveDocsLinkSecret(t.env) });
  if (!(opened instanceof FilesystemObjectStore)) throw new Error('expected the filesystem store');
  fsStore = opened;
});
afterAll(async () => {
  await docs?.close();
  await t?.close();
});

/** The gateway strips /api and adds the signed context with the tenant of the Host. */
const fsHarness = (): Harness => ({
  store: fsStore,
  target: (url, tenant) => {
    if (!url.startsWith('/api/')) throw new Error(`not a gateway path: ${url}`);
    return { url: `${docsUrl}${url.slice(4)}`, headers: contextHeaders(t.deps.contextSecret, { tenant }) };
  },
  partials: () => readdir(incomingDir()),
});

describe('filesystem store (no S3_ENDPOINT)', () => {
  objectStoreContract(fsHarness);

  const h = fsHarness;
  const link = (tenant = 'acme', maxBytes = 64 * 1024) =>
    fsStore.createUploadLink({
      tenant,
      area: 'templates',
      filename: 'tpl.pdf',
      contentType: 'application/pdf',
      maxBytes,
    });
  const postForm = async (fields: Record<string, string>, data: Buffer, tenant = 'acme') => {
    const { body, contentType } = rawMultipart([
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'file', file: { data } },
    ]);
    const target = h().target(FS_UPLOAD_URL, tenant);
    return send(target.url, {
      method: 'POST',
      headers: { ...target.headers, 'content-type': contentType },
      body,
    });
  };
  const message = (r: { body: Buffer }) => (JSON.parse(r.body.toString()) as { message: string }).message;

  it('answers gateway paths as the link URLs', async () => {
    expect((await link()).url).toBe(FS_UPLOAD_URL);
    const l = await link();
    expect((await postForm(l.fields, Buffer.from('x'))).status).toBe(204);
    expect(await fsStore.downloadLink('acme', l.fields.key!, { filename: 'a.pdf' })).toMatch(
      new RegExp(`^${FS_DOWNLOAD_URL}\\?key=acme%2Ftemplates%2F`),
    );
  });

  it('says what is wrong in words a person can read', async () => {
    const l = await link('acme', 10);
    const tooLarge = await postForm(l.fields, Buffer.alloc(11));
    expect([tooLarge.status, message(tooLarge)]).toEqual([400, 'The file is too large.']);
    const badType = await postForm({ ...l.fields, 'Content-Type': 'image/svg+xml' }, Buffer.alloc(5));
    expect([badType.status, message(badType)]).toEqual([403, 'The file type is not allowed.']);
    const forged = await postForm({ ...l.fields, 'x-signature': 'x' }, Buffer.alloc(5));
    expect([forged.status, message(forged)]).toEqual([403, 'The upload form is not valid.']);
  });

  it('binds a form to its tenant: posted on another tenant host it is refused', async () => {
    const theirs = await link('northbank');
    const r = await postForm(theirs.fields, Buffer.from('hello'), 'acme');
    expect(r.status).toBe(403);
    expect(await fsStore.head('northbank', theirs.fields.key!)).toBeNull();
    expect((await postForm(theirs.fields, Buffer.from('hello'), 'northbank')).status).toBe(204);
  });

  it('binds a download link to its tenant and serves it as an inert attachment', async () => {
    const l = await link('northbank');
    expect((await postForm(l.fields, Buffer.from('<script>alert(1)</script>'), 'northbank')).status).toBe(
      204,
    );
    const url = await fsStore.downloadLink('northbank', l.fields.key!, {
      filename: 'x.html',
      contentType: 'text/html',
    });
    const onAcme = h().target(url, 'acme');
    expect((await send(onAcme.url, { headers: onAcme.headers })).status).toBe(403);
    const own = h().target(url, 'northbank');
    const r = await send(own.url, { headers: own.headers });
    expect(r.status).toBe(200);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-security-policy']).toBe(DOWNLOAD_CSP);
    expect(r.headers['cache-control']).toBe('private, no-store');
    expect(String(r.headers['content-disposition'])).toMatch(/^attachment;/);
  });

  it('refuses a repeated field (a form that could mean two things)', async () => {
    const l = await link();
    const { body, contentType } = rawMultipart([
      ...Object.entries(l.fields).map(([name, value]) => ({ name, value })),
      { name: 'key', value: l.fields.key! },
      { name: 'file', file: { data: Buffer.from('x') } },
    ]);
    const target = h().target(FS_UPLOAD_URL, 'acme');
    const r = await send(target.url, {
      method: 'POST',
      headers: { ...target.headers, 'content-type': contentType },
      body,
    });
    expect(r.status).toBe(403);
    expect(await fsStore.head('acme', l.fields.key!)).toBeNull();
  });

  it('streams uploads past the service body limit up to the signed size, and refuses a declared body over it at once', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    const l = await link('acme', big.length);
    expect((await postForm(l.fields, big)).status).toBe(204);
    expect((await fsStore.head('acme', l.fields.key!))?.size).toBe(big.length);

    const small = await link('acme', 1024);
    const r = await postForm(small.fields, big);
    expect(r.status).toBe(400);
    expect(await fsStore.head('acme', small.fields.key!)).toBeNull();
    expect(await readdir(incomingDir())).toEqual([]);
  });

  it('removes partial uploads a crashed process left behind when it opens', async () => {
    const stale = join(incomingDir(), 'crashed.part');
    const fresh = join(incomingDir(), 'uploading.part');
    await writeFile(stale, 'half');
    await writeFile(fresh, 'half');
    const hourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(stale, hourAgo, hourAgo);
    await FilesystemObjectStore.open({
      root: join(t.env.DATA_DIR, 'objects'),
      secret: deriveObjectSecret(resolveDocsLinkSecret(t.env)),
      uploadUrl: FS_UPLOAD_URL,
      downloadUrl: FS_DOWNLOAD_URL,
      log: t.deps.log,
    });
    expect(await readdir(incomingDir())).toEqual(['uploading.part']);
    await fsStore.sweepPartials(0);
  });

  it('refuses a link request the store cannot honour', async () => {
    const base = { tenant: 'acme', area: 'templates', filename: 'a.pdf', contentType: 'application/pdf' };
    await expect(fsStore.createUploadLink({ ...base, maxBytes: 60 * 1024 * 1024 })).rejects.toThrow(
      /maxBytes/,
    );
    await expect(fsStore.createUploadLink({ ...base, maxBytes: 10, contentType: 'pdf' })).rejects.toThrow(
      /content type/,
    );
    await expect(fsStore.createUploadLink({ ...base, tenant: 'Not a tenant', maxBytes: 10 })).rejects.toThrow(
      /tenant/,
    );
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it, type TestContext } from 'vitest';
import { HttpError } from '@portal/core';
import type { ObjectStore, UploadLink } from '@portal/storage';
import { rawMultipart, send, sendAndDisconnect, sleep, uploadForm, type FileSpec } from './multipart';

/**
 * The object store contract (design §10), the same for S3 and the filesystem
 * store: an upload link is `{url, fields}`, a multipart POST of the fields
 * plus `file` stores the file (204) or refuses it and stores nothing, and
 * downloads are short-lived signed links.
 */
export interface Harness {
  store: ObjectStore;
  /** Where the browser of `tenant` sends a link's URL, with the headers it arrives with. */
  target(url: string, tenant: string): { url: string; headers: Record<string, string> };
  /** Partial writes left behind in the store's own storage (the filesystem store's `.incoming`). */
  partials(): Promise<string[]>;
  /**
   * What this store's server does not do that real S3 does, each with the reason (none for the
   * filesystem store, MinIO or S3). The checks that rely on it are skipped with that reason,
   * never loosened: they still run against every store that has it.
   */
  gaps?: ServerGaps;
}

/**
 * On S3 the adapter only signs: S3 itself enforces the presigned POST's policy, stores a POST
 * whole or not at all, and verifies a presigned URL's signature. A fake S3 may not (s3rver.ts).
 */
export interface ServerGaps {
  /** The presigned-POST policy is not evaluated: signature, expiry, key, Content-Type, size range. */
  postPolicy?: string;
  /** A POST cut off mid-file is stored anyway (truncated). */
  wholePost?: string;
  /** A presigned URL's signature is not verified (its expiry may still be). */
  urlSignature?: string;
}

const TENANT = 'acme';
const PDF = 'application/pdf';

export function objectStoreContract(getHarness: () => Harness) {
  const h = () => getHarness();
  const link = (options: { maxBytes?: number; expiresInSeconds?: number; filename?: string } = {}) =>
    h().store.createUploadLink({
      tenant: TENANT,
      area: 'representments',
      filename: options.filename ?? 'Évidence report (final).pdf',
      contentType: PDF,
      maxBytes: options.maxBytes ?? 64 * 1024,
      ...(options.expiresInSeconds ? { expiresInSeconds: options.expiresInSeconds } : {}),
    });
  const post = async (l: UploadLink, fields: Record<string, string>, file?: FileSpec, tenant = TENANT) => {
    const target = h().target(l.url, tenant);
    const res = await fetch(target.url, {
      method: 'POST',
      headers: target.headers,
      body: uploadForm(fields, file),
    });
    return { status: res.status, text: await res.text() };
  };
  const bytes = (n: number) => randomBytes(n);
  const readAll = async (tenant: string, key: string) => {
    const stream = await h().store.read(tenant, key);
    if (!stream) return null;
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  };
  /** Nothing stored under the key and no partial left anywhere. */
  const nothingStored = async (key: string) => {
    expect(await h().store.head(TENANT, key)).toBeNull();
    expect(await h().partials()).toEqual([]);
  };
  const signatureField = (fields: Record<string, string>) =>
    Object.keys(fields).find((k) => /signature/i.test(k)) ?? 'missing';
  /** Skips the running test, naming why, where the store's server lacks what the check relies on. */
  const needs = (ctx: TestContext, what: keyof ServerGaps) => {
    const gap = h().gaps?.[what];
    if (gap) ctx.skip(gap);
  };

  describe('upload link', () => {
    it('is the presigned-POST shape with a fresh key under the tenant', async () => {
      const l = await link();
      expect(typeof l.url).toBe('string');
      expect(l.fields.key).toMatch(/^acme\/representments\/[0-9a-f-]{36}\/Evidence_report_final_\.pdf$/);
      expect(l.fields['Content-Type']).toBe(PDF);
      expect((await link()).fields.key).not.toBe(l.fields.key);
    });

    it('stores the posted file (204) and head/read give back the same bytes', async () => {
      const l = await link();
      const data = bytes(20_000);
      const r = await post(l, l.fields, { data, type: PDF, filename: 'report.pdf' });
      expect(r.status).toBe(204);
      expect(await h().store.head(TENANT, l.fields.key!)).toEqual({ size: data.length, contentType: PDF });
      expect((await readAll(TENANT, l.fields.key!))?.equals(data)).toBe(true);
      expect(await h().partials()).toEqual([]);
    });

    it('takes a file of exactly the allowed size', async () => {
      const l = await link({ maxBytes: 4096 });
      expect((await post(l, l.fields, { data: bytes(4096) })).status).toBe(204);
      expect((await h().store.head(TENANT, l.fields.key!))?.size).toBe(4096);
    });

    it('refuses a tampered signature and stores nothing', async (ctx) => {
      needs(ctx, 'postPolicy');
      const l = await link();
      const name = signatureField(l.fields);
      const sig = l.fields[name]!;
      const tampered = { ...l.fields, [name]: (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1) };
      expect((await post(l, tampered, { data: bytes(100) })).status).toBe(403);
      await nothingStored(l.fields.key!);
    });

    it('refuses a changed key, including one of another tenant', async (ctx) => {
      needs(ctx, 'postPolicy');
      const l = await link();
      for (const key of [
        l.fields.key!.replace(/[0-9a-f-]{36}/, randomUUID()),
        l.fields.key!.replace(/^acme\//, 'northbank/'),
      ]) {
        expect((await post(l, { ...l.fields, key }, { data: bytes(100) })).status).toBe(403);
        await nothingStored(l.fields.key!);
        if (key.startsWith('acme/')) expect(await h().store.head(TENANT, key)).toBeNull();
      }
    });

    it('refuses another content type than the signed one', async (ctx) => {
      needs(ctx, 'postPolicy');
      const l = await link();
      const r = await post(
        l,
        { ...l.fields, 'Content-Type': 'text/html' },
        { data: bytes(100), type: 'text/html' },
      );
      expect(r.status).toBe(403);
      await nothingStored(l.fields.key!);
    });

    it('refuses a file over the signed size while it streams, and an empty file', async (ctx) => {
      needs(ctx, 'postPolicy');
      const l = await link({ maxBytes: 1000 });
      expect((await post(l, l.fields, { data: bytes(5000) })).status).toBe(400);
      await nothingStored(l.fields.key!);
      expect((await post(l, l.fields, { data: bytes(1001) })).status).toBe(400);
      await nothingStored(l.fields.key!);
      expect((await post(l, l.fields, { data: Buffer.alloc(0) })).status).toBe(400);
      await nothingStored(l.fields.key!);
    });

    it('refuses a form without its file', async () => {
      const l = await link();
      expect((await post(l, l.fields)).status).toBe(400);
      await nothingStored(l.fields.key!);
    });

    it('refuses an expired form', async (ctx) => {
      needs(ctx, 'postPolicy');
      const l = await link({ expiresInSeconds: 1 });
      await sleep(2100);
      expect((await post(l, l.fields, { data: bytes(100) })).status).toBe(403);
      await nothingStored(l.fields.key!);
    });

    it('leaves nothing behind when the client disconnects halfway', async (ctx) => {
      needs(ctx, 'wholePost');
      const l = await link({ maxBytes: 4 * 1024 * 1024 });
      const data = bytes(3 * 1024 * 1024);
      const { body, contentType } = rawMultipart([
        ...Object.entries(l.fields).map(([name, value]) => ({ name, value })),
        { name: 'file', file: { data, type: PDF } },
      ]);
      const target = h().target(l.url, TENANT);
      await sendAndDisconnect(
        target.url,
        { ...target.headers, 'content-type': contentType },
        body,
        1024 * 1024,
      );
      // The server notices the drop on its own time: wait until it has cleaned up.
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline && (await h().partials()).length) await sleep(50);
      await nothingStored(l.fields.key!);
    });
  });

  describe('download link', () => {
    const stored = async (data: Buffer) => {
      const l = await link();
      expect((await post(l, l.fields, { data, type: PDF })).status).toBe(204);
      return l.fields.key!;
    };
    const open = (url: string, tenant = TENANT) => {
      const target = h().target(url, tenant);
      return send(target.url, { headers: target.headers });
    };

    it('downloads the file as an attachment with the given name', async () => {
      const data = bytes(3000);
      const key = await stored(data);
      const url = await h().store.downloadLink(TENANT, key, {
        filename: 'Case 123 – evidence.pdf',
        contentType: PDF,
      });
      const r = await open(url);
      expect(r.status).toBe(200);
      expect(r.body.equals(data)).toBe(true);
      expect(r.headers['content-type']).toBe(PDF);
      expect(String(r.headers['content-disposition'])).toMatch(
        /^attachment; filename="Case 123 _ evidence.pdf"/,
      );
      expect(String(r.headers['content-disposition'])).toContain(
        `filename*=UTF-8''${encodeURIComponent('Case 123 – evidence.pdf')}`,
      );
    });

    it('refuses a tampered link', async (ctx) => {
      needs(ctx, 'urlSignature');
      const key = await stored(bytes(100));
      const url = new URL(await h().store.downloadLink(TENANT, key, { filename: 'a.pdf' }), 'http://x');
      const sigName = [...url.searchParams.keys()].find((k) => /sig/i.test(k))!;
      const sig = url.searchParams.get(sigName)!;
      const tampered = new URL(url);
      tampered.searchParams.set(sigName, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
      const rel = (u: URL) => (u.host === 'x' ? `${u.pathname}${u.search}` : u.toString());
      expect((await open(rel(tampered))).status).toBe(403);
      expect((await open(rel(url))).status).toBe(200);
    });

    it('refuses an expired link', async () => {
      const key = await stored(bytes(100));
      const short = await h().store.downloadLink(TENANT, key, { filename: 'a.pdf', expiresInSeconds: 1 });
      expect((await open(short)).status).toBe(200);
      await sleep(2100);
      expect((await open(short)).status).toBe(403);
    });
  });

  describe('server-side writes and tenants', () => {
    it('puts, reads and deletes an object', async () => {
      const { newObjectKey } = await import('@portal/storage');
      const key = newObjectKey(TENANT, 'exports', 'cases 2026-01.csv');
      expect(key).toMatch(/^acme\/exports\/[0-9a-f-]{36}\/cases_2026-01\.csv$/);
      const info = await h().store.put(TENANT, key, 'id,amount\n1,2.00\n', { contentType: 'text/csv' });
      expect(info).toEqual({ size: 17, contentType: 'text/csv' });
      expect(await h().store.head(TENANT, key)).toEqual(info);
      expect((await readAll(TENANT, key))?.toString()).toBe('id,amount\n1,2.00\n');
      await h().store.delete(TENANT, key);
      expect(await h().store.head(TENANT, key)).toBeNull();
      expect(await h().store.read(TENANT, key)).toBeNull();
      await h().store.delete(TENANT, key);
    });

    it("never makes or reads another tenant's key", async () => {
      const l = await link({ filename: '../../northbank/representments/x.pdf' });
      expect(l.fields.key!.startsWith('acme/representments/')).toBe(true);
      expect(l.fields.key!.split('/')).toHaveLength(4);
      expect((await post(l, l.fields, { data: bytes(10) })).status).toBe(204);

      const theirs = l.fields.key!;
      const refused = async (p: Promise<unknown>) => {
        const error = await p.then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(HttpError);
        expect((error as HttpError).statusCode).toBe(404);
      };
      // The object exists, but for northbank it is not there at all.
      await refused(h().store.head('northbank', theirs));
      await refused(h().store.read('northbank', theirs));
      await refused(h().store.delete('northbank', theirs));
      await refused(h().store.downloadLink('northbank', theirs, { filename: 'x.pdf' }));
      await refused(h().store.put('northbank', theirs, 'x', { contentType: 'text/plain' }));
      for (const bad of [
        'acme/../northbank/x/y',
        `acme/representments/${randomUUID()}/.hidden`,
        '/etc/passwd',
        '',
      ])
        await refused(h().store.head(TENANT, bad));
      expect(await h().store.head(TENANT, theirs)).not.toBeNull();
    });
  });
}

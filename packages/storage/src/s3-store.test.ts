import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@portal/core';
import { S3ObjectStore } from './s3-store';

/**
 * The S3 store's links are made offline (signing needs no server): their
 * shape is checked here; tests/integration/storage runs the whole contract
 * against MinIO when one is reachable.
 */
const store = new S3ObjectStore({
  endpoint: 'http://objects:9000',
  publicEndpoint: 'http://localhost:9000',
  bucket: 'portal-docs',
  region: 'us-east-1',
  accessKeyId: 'key',
  secretAccessKey: 'secret',
  forcePathStyle: true,
  log: createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }, 'test'),
});

describe('S3 store links', () => {
  it('makes a presigned POST for the public endpoint that fixes key, type and size', async () => {
    const link = await store.createUploadLink({
      tenant: 'acme',
      area: 'templates',
      filename: 'tpl.pdf',
      contentType: 'application/pdf',
      maxBytes: 5000,
      expiresInSeconds: 600,
    });
    expect(link.url).toBe('http://localhost:9000/portal-docs');
    expect(link.fields.key).toMatch(/^acme\/templates\/[0-9a-f-]{36}\/tpl\.pdf$/);
    expect(link.fields['Content-Type']).toBe('application/pdf');
    const policy = JSON.parse(Buffer.from(link.fields.Policy!, 'base64').toString()) as {
      expiration: string;
      conditions: unknown[];
    };
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1, 5000],
        { 'Content-Type': 'application/pdf' },
        { key: link.fields.key },
        { bucket: 'portal-docs' },
      ]),
    );
    const ttl = Date.parse(policy.expiration) - Date.now();
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });

  it('makes a presigned GET that downloads as an attachment', async () => {
    const key = 'acme/exports/00000000-0000-4000-8000-000000000000/cases.csv';
    const url = new URL(
      await store.downloadLink('acme', key, { filename: 'Cases é.csv', expiresInSeconds: 120 }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(`http://localhost:9000/portal-docs/${key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('120');
    expect(url.searchParams.get('response-content-disposition')).toBe(
      `attachment; filename="Cases _.csv"; filename*=UTF-8''Cases%20%C3%A9.csv`,
    );
    await expect(store.downloadLink('northbank', key, { filename: 'x' })).rejects.toThrow(/not found/);
  });
});

describe('S3 client on Node 20', () => {
  it('is built without the SDK Node-version warning and leaves the environment as it was', () => {
    // A process of its own: the SDK warns at most once per process, and this file's store is already built.
    const script = `
      delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
      const { S3ObjectStore } = await import('./src/s3-store.ts');
      const log = { warn() {}, info() {} };
      new S3ObjectStore({ endpoint: 'http://127.0.0.1:9', bucket: 'b', region: 'us-east-1', forcePathStyle: true, log });
      process.stdout.write(String(process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED));
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '..'),
      encoding: 'utf8',
    });
    expect(run.stderr).not.toMatch(/NodeVersionSupportWarning|Warning/);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('undefined');
  }, 30_000);
});

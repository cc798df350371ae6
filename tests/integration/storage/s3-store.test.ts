import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createLogger } from '@portal/core';
import { openObjectStore, S3ObjectStore, type ObjectStore } from '@portal/storage';
import { objectStoreContract, type ServerGaps } from './contract';
import { s3ForTests } from './minio';
import { S3RVER_GAPS, startS3rver, type S3rverEndpoint } from './s3rver';

/**
 * The S3 store (packages/storage/src/s3-store.ts) against the object store
 * contract (design §10), opened as the services open it (openObjectStore with
 * S3_ENDPOINT set; it creates its bucket): always against s3rver, started
 * here, and against MinIO as well when a Docker engine answers (or against
 * S3_TEST_ENDPOINT: minio.ts). The browser posts and downloads straight to and
 * from the store, so links are used as they are.
 */
type S3Server = Omit<S3rverEndpoint, 'source'>;

const log = createLogger({ LOG_LEVEL: 'warn', NODE_ENV: 'test' }, 's3-store-test');

function s3Contract(start: () => Promise<S3Server>, gaps?: ServerGaps) {
  let server: S3Server | undefined;
  let store: ObjectStore | undefined;
  beforeAll(async () => {
    server = await start();
    store = await openObjectStore(
      {
        NODE_ENV: 'test',
        DATA_DIR: '.data/unused-by-s3',
        DOCS_LINK_SECRET: undefined,
        S3_ENDPOINT: server.endpoint,
        S3_PUBLIC_ENDPOINT: undefined,
        // Its own bucket, should the server be shared (S3_TEST_ENDPOINT).
        S3_BUCKET: `portal-test-${randomBytes(6).toString('hex')}`,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: server.accessKeyId,
        S3_SECRET_ACCESS_KEY: server.secretAccessKey,
        S3_FORCE_PATH_STYLE: true,
      },
      log,
      { linkSecret: 'unused-by-s3' },
    );
    expect(store).toBeInstanceOf(S3ObjectStore);
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  objectStoreContract(() => ({
    store: store!,
    target: (url) => ({ url, headers: {} }),
    partials: async () => [],
    ...(gaps ? { gaps } : {}),
  }));
}

describe('S3 store (s3rver)', () => {
  s3Contract(startS3rver, S3RVER_GAPS);
});

const s3 = await s3ForTests();

describe.skipIf(!s3.ok)(`S3 store${s3.ok ? ` (${s3.source})` : ` — skipped: ${s3.reason}`}`, () => {
  s3Contract(async () => {
    if (!s3.ok) throw new Error(s3.reason);
    return s3;
  });
});

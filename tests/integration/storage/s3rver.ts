import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { ServerGaps } from './contract';

/**
 * s3rver (npm `s3rver`, a fake S3 written in Node), started by the test that
 * needs it: its own port (0: the system picks a free one), its own temp
 * directory, no log, so files running side by side (or in one process with
 * --no-isolate) never meet. Path-style only (vhostBuckets off), as the
 * adapter addresses it. The bucket is made by the adapter (ensureBucket).
 */
export interface S3rverEndpoint {
  endpoint: string;
  /** s3rver's one built-in key pair. */
  accessKeyId: string;
  secretAccessKey: string;
  source: string;
  stop(): Promise<void>;
}

export async function startS3rver(): Promise<S3rverEndpoint> {
  const directory = await mkdtemp(join(tmpdir(), 'portal-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    vhostBuckets: false,
  });
  const { address, port } = await server.run();
  return {
    endpoint: `http://${address}:${port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    source: 's3rver',
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * What s3rver 3.7.1 does not do that S3 (and MinIO) do, so the contract checks
 * that rely on it run only against MinIO or real S3. The adapter relies on all
 * three: it only signs, and S3 enforces.
 */
export const S3RVER_GAPS: ServerGaps = {
  postPolicy:
    's3rver ignores the presigned-POST policy and its signature (lib/controllers/object.js postObject): checked on MinIO/S3 only',
  wholePost:
    's3rver stores a POST cut off mid-file, truncated (lib/stores/filesystem.js putObject): checked on MinIO/S3 only',
  urlSignature:
    's3rver does not verify SigV4 signatures, only the key id and expiry (lib/middleware/authentication.js): checked on MinIO/S3 only',
};

import { join } from 'node:path';
import type { Env, Logger } from '@portal/core';
import { deriveObjectSecret } from './fs-signing';
import { FilesystemObjectStore } from './fs-store';
import { resolveDocsLinkSecret } from './link-secret';
import type { ObjectStore } from './object-store';
import { S3ObjectStore } from './s3-store';

type StoreEnv = Pick<
  Env,
  | 'NODE_ENV'
  | 'DATA_DIR'
  | 'DOCS_LINK_SECRET'
  | 'S3_ENDPOINT'
  | 'S3_PUBLIC_ENDPOINT'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

/** Gateway paths of the docs service's routes that stand in for S3 when there is no S3 (services/docs/src/objects). */
export const FS_UPLOAD_URL = '/api/docs/objects/upload';
export const FS_DOWNLOAD_URL = '/api/docs/objects/download';

export interface OpenOptions {
  /** The docs link secret (default resolveDocsLinkSecret(env)): the filesystem store signs its forms and links with a key derived from it. */
  linkSecret?: string;
}

/** S3 when S3_ENDPOINT is set, else the filesystem store under DATA_DIR/objects (design §10). */
export async function openObjectStore(
  env: StoreEnv,
  log: Logger,
  options: OpenOptions = {},
): Promise<ObjectStore> {
  if (env.S3_ENDPOINT) {
    const store = new S3ObjectStore({
      endpoint: env.S3_ENDPOINT,
      publicEndpoint: env.S3_PUBLIC_ENDPOINT,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      log,
    });
    await store.ensureBucket(env.NODE_ENV !== 'production');
    log.info({ endpoint: env.S3_ENDPOINT, bucket: env.S3_BUCKET }, 'object store: S3');
    return store;
  }
  const root = join(env.DATA_DIR, 'objects');
  log.info({ root }, 'object store: filesystem (no S3_ENDPOINT)');
  return FilesystemObjectStore.open({
    root,
    secret: deriveObjectSecret(options.linkSecret ?? resolveDocsLinkSecret(env)),
    uploadUrl: FS_UPLOAD_URL,
    downloadUrl: FS_DOWNLOAD_URL,
    log,
  });
}

const shared = new Map<string, Promise<ObjectStore>>();
/** One store per process and configuration (S3 endpoint or DATA_DIR), shared by routes and jobs. */
export function sharedObjectStore(env: StoreEnv, log: Logger): Promise<ObjectStore> {
  const key = `${env.S3_ENDPOINT ?? ''}|${env.DATA_DIR}`;
  let store = shared.get(key);
  if (!store) {
    store = openObjectStore(env, log);
    shared.set(key, store);
  }
  return store;
}

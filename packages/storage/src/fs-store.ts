import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { HttpError, type Logger } from '@portal/core';
import {
  signDownload,
  signUploadPolicy,
  verifyDownload,
  verifyUploadForm,
  type DownloadGrant,
  type UploadPolicy,
} from './fs-signing';
import { assertTenantKey, newObjectKey, OBJECT_MESSAGES, parseObjectKey } from './keys';
import {
  checkTtl,
  checkUploadRequest,
  DOWNLOAD_LINK_TTL_SECONDS,
  UPLOAD_LINK_TTL_SECONDS,
  type DownloadLinkOptions,
  type ObjectBody,
  type ObjectInfo,
  type ObjectStore,
  type UploadLink,
  type UploadLinkRequest,
} from './object-store';

export interface FilesystemStoreOptions {
  /** DATA_DIR/objects. */
  root: string;
  /** deriveObjectSecret(docs link secret). */
  secret: string;
  /** Where the browser posts the form (the docs service's upload route through the gateway). */
  uploadUrl: string;
  /** Where download links point (the docs service's download route through the gateway). */
  downloadUrl: string;
  log: Logger;
}

/** Partial uploads older than this are a crashed process's leftovers. */
const STALE_PARTIAL_MS = 60 * 60 * 1000;
const INCOMING = '.incoming';

interface Meta {
  contentType: string;
  size: number;
}

/**
 * Objects as files: `<root>/<key>` holds the bytes, `<root>/<tenant>/<area>/<uuid>/.<name>.meta.json`
 * the content type. Every write goes to `<root>/.incoming/<random>.part` first
 * (same filesystem, so the final rename is atomic), is fsynced, and is renamed
 * into place only when complete: a reader sees a whole object or none, and a
 * failed or abandoned write leaves nothing but a partial that is removed at
 * once (or, after a crash, at the next start).
 */
export class FilesystemObjectStore implements ObjectStore {
  readonly kind = 'filesystem' as const;
  private readonly incoming: string;

  private constructor(private readonly opts: FilesystemStoreOptions) {
    this.incoming = join(opts.root, INCOMING);
  }

  static async open(opts: FilesystemStoreOptions): Promise<FilesystemObjectStore> {
    const store = new FilesystemObjectStore(opts);
    await mkdir(store.incoming, { recursive: true, mode: 0o700 });
    await store.sweepPartials(STALE_PARTIAL_MS);
    return store;
  }

  /** Removes partial writes older than `olderThanMs` (0: all; only safe when nothing is uploading). */
  async sweepPartials(olderThanMs: number): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.incoming)) {
      const path = join(this.incoming, name);
      const info = await stat(path).catch(() => null);
      if (info && Date.now() - info.mtimeMs >= olderThanMs) {
        await rm(path, { force: true });
        removed++;
      }
    }
    if (removed) this.opts.log.info({ removed }, 'object store: removed abandoned partial uploads');
    return removed;
  }

  async createUploadLink(request: UploadLinkRequest): Promise<UploadLink> {
    checkUploadRequest(request);
    const key = newObjectKey(request.tenant, request.area, request.filename);
    const policy: UploadPolicy = {
      v: 1,
      tenant: request.tenant,
      key,
      content_type: request.contentType,
      max_bytes: request.maxBytes,
      exp: Math.floor(Date.now() / 1000) + (request.expiresInSeconds ?? UPLOAD_LINK_TTL_SECONDS),
    };
    return { url: this.opts.uploadUrl, fields: signUploadPolicy(this.opts.secret, policy) };
  }

  /** The upload route's first step: the form's fields, before any byte of the file is read. */
  checkUploadForm(tenant: string, fields: Readonly<Record<string, string | undefined>>): UploadPolicy {
    return verifyUploadForm(this.opts.secret, tenant, fields);
  }

  /** The upload route's second step: the file, stored only if it is complete and within the policy. */
  receiveUpload(policy: UploadPolicy, file: Readable): Promise<ObjectInfo> {
    return this.write(policy.key, file, policy.content_type, policy.max_bytes);
  }

  /** The download route's check: signature, expiry, tenant. */
  checkDownload(tenant: string, query: Readonly<Record<string, unknown>>): DownloadGrant {
    return verifyDownload(this.opts.secret, tenant, query);
  }

  async head(tenant: string, key: string): Promise<ObjectInfo | null> {
    assertTenantKey(tenant, key);
    const { data, meta } = this.paths(key);
    const info = await stat(data).catch(notFoundAsNull);
    if (!info) return null;
    const stored = await readFile(meta, 'utf8')
      .then((text) => JSON.parse(text) as Meta)
      .catch(() => null);
    return { size: info.size, contentType: stored?.contentType ?? 'application/octet-stream' };
  }

  async read(tenant: string, key: string): Promise<Readable | null> {
    assertTenantKey(tenant, key);
    const handle = await open(this.paths(key).data, 'r').catch(notFoundAsNull);
    return handle ? handle.createReadStream() : null;
  }

  async put(
    tenant: string,
    key: string,
    body: ObjectBody,
    options: { contentType: string; contentLength?: number },
  ): Promise<ObjectInfo> {
    assertTenantKey(tenant, key);
    return this.write(key, body, options.contentType);
  }

  async delete(tenant: string, key: string): Promise<void> {
    assertTenantKey(tenant, key);
    const { data, meta } = this.paths(key);
    await rm(data, { force: true });
    await rm(meta, { force: true });
    await rmdir(dirname(data)).catch(() => {}); // the key's own uuid directory, when empty
  }

  async downloadLink(tenant: string, key: string, options: DownloadLinkOptions): Promise<string> {
    assertTenantKey(tenant, key);
    checkTtl(options.expiresInSeconds);
    let contentType = options.contentType;
    if (!contentType) {
      const info = await this.head(tenant, key);
      if (!info) throw new HttpError(404, OBJECT_MESSAGES.notFound);
      contentType = info.contentType;
    }
    const exp = Math.floor(Date.now() / 1000) + (options.expiresInSeconds ?? DOWNLOAD_LINK_TTL_SECONDS);
    const query = signDownload(this.opts.secret, tenant, {
      key,
      filename: options.filename,
      contentType,
      exp,
    });
    return `${this.opts.downloadUrl}?${query}`;
  }

  async close(): Promise<void> {}

  private paths(key: string) {
    const parts = parseObjectKey(key);
    if (!parts) throw new HttpError(404, OBJECT_MESSAGES.notFound);
    const dir = join(this.opts.root, parts.tenant, parts.area, parts.id);
    return { data: join(dir, parts.filename), meta: join(dir, `.${parts.filename}.meta.json`) };
  }

  /**
   * Streams `body` into a partial file, counting bytes as they arrive (a file
   * over `maxBytes` is refused at the first byte too many, not after it has
   * all been written), fsyncs it, then renames metadata and data into place.
   * Any failure, including the client going away mid-stream, removes the partial.
   */
  private async write(
    key: string,
    body: ObjectBody,
    contentType: string,
    maxBytes?: number,
  ): Promise<ObjectInfo> {
    const { data, meta } = this.paths(key);
    const partial = join(this.incoming, `${randomUUID()}.part`);
    const metaPartial = `${partial}.meta`;
    let handle: FileHandle | undefined = await open(partial, 'wx', 0o600);
    let metaPlaced = false;
    try {
      let size = 0;
      const chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> =
        typeof body === 'string' || body instanceof Uint8Array ? [Buffer.from(body)] : body;
      for await (const chunk of chunks) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        size += bytes.length;
        if (maxBytes !== undefined && size > maxBytes) throw new HttpError(400, OBJECT_MESSAGES.tooLarge);
        await handle.write(bytes);
      }
      if (maxBytes !== undefined && size === 0) throw new HttpError(400, OBJECT_MESSAGES.empty);
      await handle.sync();
      await handle.close();
      handle = undefined;

      await writeSynced(metaPartial, JSON.stringify({ contentType, size } satisfies Meta));
      await mkdir(dirname(data), { recursive: true, mode: 0o700 });
      // Metadata first: whoever sees the data file also finds its type.
      await rename(metaPartial, meta);
      metaPlaced = true;
      await rename(partial, data);
      metaPlaced = false;
      await syncDir(dirname(data));
      return { size, contentType };
    } catch (error) {
      await handle?.close().catch(() => {});
      await rm(partial, { force: true });
      await rm(metaPartial, { force: true });
      if (metaPlaced) await rm(meta, { force: true });
      throw error;
    }
  }
}

function notFoundAsNull(error: NodeJS.ErrnoException): null {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
  throw error;
}

async function writeSynced(path: string, text: string) {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The renames themselves survive a power cut only once the directory is synced. */
async function syncDir(path: string) {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export type { DownloadGrant, UploadPolicy };

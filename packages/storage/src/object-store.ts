import type { Readable } from 'node:stream';

/**
 * The object store of design §10: representment documents, templates, CSV
 * uploads and export files. One contract, two implementations: S3 (MinIO in
 * compose) when S3_ENDPOINT is set, else a filesystem store under
 * DATA_DIR/objects that answers the same shapes, so services and the web app
 * never know which one they talk to.
 *
 * Every call names the tenant; keys outside it are refused (keys.ts).
 */

/** The S3 presigned-POST shape: post `fields` plus `file` (last) as multipart/form-data to `url`. */
export interface UploadLink {
  url: string;
  /** `fields.key` is the object key the client names afterwards (e.g. as `s3_key`). */
  fields: Record<string, string>;
}

export interface UploadLinkRequest {
  tenant: string;
  /** Key area: 'representments', 'templates', 'onboarding', 'case-updater', 'exports', ... */
  area: string;
  /** The user's file name; reduced to a safe key segment. */
  filename: string;
  /**
   * The one content type the form may carry (S3 policies can match one value
   * or a prefix, not a list): the service checks the type the client names
   * against its own allow-list before asking for a link.
   */
  contentType: string;
  /** Largest accepted file in bytes (at most MAX_UPLOAD_BYTES); empty files are always refused. */
  maxBytes: number;
  /** Default UPLOAD_LINK_TTL_SECONDS. */
  expiresInSeconds?: number;
}

export interface ObjectInfo {
  size: number;
  contentType: string;
}

export interface DownloadLinkOptions {
  /** Name the browser saves the file as (Content-Disposition: attachment). */
  filename: string;
  /** Content-Type of the answer; the stored type when omitted. */
  contentType?: string;
  /** Default DOWNLOAD_LINK_TTL_SECONDS. */
  expiresInSeconds?: number;
}

export type ObjectBody = Uint8Array | string | Readable;

export interface ObjectStore {
  readonly kind: 'filesystem' | 's3';
  createUploadLink(request: UploadLinkRequest): Promise<UploadLink>;
  /** Size and type of a stored object; null when there is none. */
  head(tenant: string, key: string): Promise<ObjectInfo | null>;
  /** The stored bytes; null when there is no such object. */
  read(tenant: string, key: string): Promise<Readable | null>;
  /**
   * Server-side write (compiled PDFs, exports). Stored completely or not at
   * all. A stream body needs `contentLength` on S3 (PutObject wants it).
   */
  put(
    tenant: string,
    key: string,
    body: ObjectBody,
    options: { contentType: string; contentLength?: number },
  ): Promise<ObjectInfo>;
  /** Removes the object; no error when it is already gone. */
  delete(tenant: string, key: string): Promise<void>;
  /** A short-lived link that downloads the object as an attachment. */
  downloadLink(tenant: string, key: string, options: DownloadLinkOptions): Promise<string>;
  close(): Promise<void>;
}

/**
 * The largest upload a link may allow: the gateway takes 50 MiB bodies under
 * /api/docs/ (gateway/src/pipeline/pipeline.ts), and the multipart form adds
 * its fields and boundaries, well under 64 KiB (fields are capped at 8 KiB each).
 */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024 - 64 * 1024;
/** Form overhead allowed on top of the file when checking a declared Content-Length. */
export const FORM_OVERHEAD_BYTES = 64 * 1024;
export const UPLOAD_LINK_TTL_SECONDS = 15 * 60;
export const DOWNLOAD_LINK_TTL_SECONDS = 5 * 60;
/** Links longer than this are refused: a download link is not a share link. */
export const MAX_LINK_TTL_SECONDS = 24 * 60 * 60;

const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/i;

/** Common checks of both stores, so a bad request fails the same way on either. */
export function checkUploadRequest(request: UploadLinkRequest): void {
  if (!CONTENT_TYPE.test(request.contentType))
    throw new Error(`not a content type: '${request.contentType}'`);
  if (!Number.isInteger(request.maxBytes) || request.maxBytes < 1 || request.maxBytes > MAX_UPLOAD_BYTES)
    throw new Error(`maxBytes must be 1..${MAX_UPLOAD_BYTES}, got ${request.maxBytes}`);
  checkTtl(request.expiresInSeconds);
}

export function checkTtl(seconds: number | undefined): void {
  if (seconds !== undefined && (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_LINK_TTL_SECONDS))
    throw new Error(`link lifetime must be 1..${MAX_LINK_TTL_SECONDS} s, got ${seconds}`);
}

/** RFC 5987 value-chars: percent-encode everything but attr-char (encodeURIComponent leaves '()* as is). */
const rfc5987 = (s: string) =>
  encodeURIComponent(s).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * RFC 6266 `attachment`: a quoted ASCII fallback (no quote, backslash,
 * control, path separator or percent: some browsers decode %xx in it) plus
 * `filename*` in UTF-8 when the name is not plain ASCII. Every download of
 * the portal (object store, stored documents) names its file with this.
 */
export function attachmentDisposition(filename: string): string {
  const printable = [...filename].filter((ch) => ch >= ' ' && ch !== '\u007f').join('');
  const name = printable.trim() || 'download';
  const ascii = name.replace(/[^\x20-\x7e]|["\\/%]/g, '_');
  return ascii === name
    ? `attachment; filename="${ascii}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`;
}

/**
 * A stored file is never a page: opened directly (or sniffed as HTML or SVG)
 * it must not run script or load anything, nor be framed.
 */
export const DOWNLOAD_CSP = "default-src 'none'; sandbox; frame-ancestors 'none'";

import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Logger } from '@portal/core';
import { assertTenantKey, newObjectKey } from './keys';
import {
  attachmentDisposition,
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

export interface S3StoreOptions {
  /** Endpoint the services reach (e.g. http://objects:9000 in compose). */
  endpoint: string;
  /** Endpoint the browser reaches, when it differs (e.g. http://localhost:9000): links are signed for it. */
  publicEndpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style URLs (`endpoint/bucket/key`): what MinIO and most S3-compatible stores need. */
  forcePathStyle: boolean;
  log: Logger;
}

/** HTTP status of an S3 error (404 for NotFound/NoSuchKey/NoSuchBucket), else undefined. */
function s3Status(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata?.httpStatusCode : undefined;
}

/** The AWS SDK's own switch for its Node-version notice (read by @aws-sdk/core when a client is built). */
const NODE_VERSION_WARNING_SWITCH = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';

/* eslint-disable no-restricted-properties -- the SDK reads its switch from the environment; not our configuration */
/**
 * An S3 client built without the SDK's NodeVersionSupportWarning. On Node < 22 the SDK (3.1164, engines
 * node >= 20) warns once per process that its releases after January 2027 will need Node 22; the portal
 * supports Node 20.19+ and this SDK works there, so the notice only alarms whoever reads the log. The SDK
 * documents this variable as the way to turn that one notice off (aws/aws-sdk-js-v3#7983); it is set only
 * while the client is built (the check runs in the constructor), so nothing else in the process or its
 * children sees it, and a value the operator set is left alone. Raise the Node floor to 22 before moving to
 * an SDK released after January 2027.
 */
function quietS3Client(config: S3ClientConfig): S3Client {
  if (process.env[NODE_VERSION_WARNING_SWITCH] !== undefined) return new S3Client(config);
  process.env[NODE_VERSION_WARNING_SWITCH] = 'true';
  try {
    return new S3Client(config);
  } finally {
    delete process.env[NODE_VERSION_WARNING_SWITCH];
  }
}
/* eslint-enable no-restricted-properties */

/**
 * S3 through @aws-sdk/client-s3. Uploads never pass through our processes:
 * the browser posts straight to the store with a presigned POST whose policy
 * fixes the key, the content type and the size range, so S3 itself enforces
 * them and stores nothing unless the whole file arrived.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  /** Signs links for the browser-facing endpoint (the host is part of a presigned URL's signature). */
  private readonly signer: S3Client;

  constructor(private readonly opts: S3StoreOptions) {
    const make = (endpoint: string) =>
      quietS3Client({
        endpoint,
        region: opts.region,
        forcePathStyle: opts.forcePathStyle,
        ...(opts.accessKeyId && opts.secretAccessKey
          ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } }
          : {}),
        // S3-compatible stores (older MinIO among them) refuse the SDK's default CRC trailers.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 3,
      });
    this.client = make(opts.endpoint);
    this.signer =
      opts.publicEndpoint && opts.publicEndpoint !== opts.endpoint ? make(opts.publicEndpoint) : this.client;
  }

  /**
   * Creates the bucket when it is missing (development, tests, a fresh
   * compose volume). Production buckets are provisioned; a failure is logged,
   * not fatal, so the docs service still starts and answers its health check.
   */
  async ensureBucket(create: boolean): Promise<void> {
    const Bucket = this.opts.bucket;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket }));
    } catch (error) {
      if (s3Status(error) !== 404 || !create) {
        this.opts.log.warn({ err: error, bucket: Bucket }, 'object store: bucket not reachable');
        return;
      }
      try {
        await this.client.send(new CreateBucketCommand({ Bucket }));
        this.opts.log.info({ bucket: Bucket }, 'object store: bucket created');
      } catch (e) {
        // 409: another process created it between our two calls.
        if (s3Status(e) !== 409)
          this.opts.log.warn({ err: e, bucket: Bucket }, 'object store: could not create the bucket');
      }
    }
  }

  async createUploadLink(request: UploadLinkRequest): Promise<UploadLink> {
    checkUploadRequest(request);
    const key = newObjectKey(request.tenant, request.area, request.filename);
    const post = await createPresignedPost(this.signer, {
      Bucket: this.opts.bucket,
      Key: key,
      // Fields become exact-match conditions (`key`, `Content-Type`, `bucket`) on their own.
      Fields: { 'Content-Type': request.contentType },
      Conditions: [['content-length-range', 1, request.maxBytes]],
      Expires: request.expiresInSeconds ?? UPLOAD_LINK_TTL_SECONDS,
    });
    return { url: post.url, fields: post.fields };
  }

  async head(tenant: string, key: string): Promise<ObjectInfo | null> {
    assertTenantKey(tenant, key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      return { size: out.ContentLength ?? 0, contentType: out.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (s3Status(error) === 404) return null;
      throw error;
    }
  }

  async read(tenant: string, key: string): Promise<Readable | null> {
    assertTenantKey(tenant, key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      // In Node the SDK's body is an http.IncomingMessage, i.e. a Readable.
      return out.Body instanceof Readable ? out.Body : null;
    } catch (error) {
      if (s3Status(error) === 404) return null;
      throw error;
    }
  }

  async put(
    tenant: string,
    key: string,
    body: ObjectBody,
    options: { contentType: string; contentLength?: number },
  ): Promise<ObjectInfo> {
    assertTenantKey(tenant, key);
    const data = typeof body === 'string' ? Buffer.from(body) : body;
    const size = data instanceof Uint8Array ? data.byteLength : options.contentLength;
    // A single PutObject is all-or-nothing; a stream of unknown length would need a multipart upload.
    if (size === undefined) throw new Error('S3 put of a stream needs contentLength');
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.opts.bucket,
        Key: key,
        Body: data,
        ContentType: options.contentType,
        ContentLength: size,
      }),
    );
    return { size, contentType: options.contentType };
  }

  async delete(tenant: string, key: string): Promise<void> {
    assertTenantKey(tenant, key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: key }));
  }

  async downloadLink(tenant: string, key: string, options: DownloadLinkOptions): Promise<string> {
    assertTenantKey(tenant, key);
    checkTtl(options.expiresInSeconds);
    const command = new GetObjectCommand({
      Bucket: this.opts.bucket,
      Key: key,
      ResponseContentDisposition: attachmentDisposition(options.filename),
      ...(options.contentType ? { ResponseContentType: options.contentType } : {}),
      ResponseCacheControl: 'private, no-store',
    });
    return getSignedUrl(this.signer, command, {
      expiresIn: options.expiresInSeconds ?? DOWNLOAD_LINK_TTL_SECONDS,
    });
  }

  async close(): Promise<void> {
    this.client.destroy();
    if (this.signer !== this.client) this.signer.destroy();
  }
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { HttpError } from '@portal/core';
import { assertTenantKey, OBJECT_MESSAGES, parseObjectKey } from './keys';

/**
 * The filesystem store's stand-ins for S3's signed POST policy and presigned
 * GET: an HMAC-SHA256 over what S3 would sign, with a key derived from the
 * docs link secret so a download-link signature can never pass as an upload
 * policy or the other way round (each MAC starts with its own purpose).
 */

/** What the upload form's `policy` field carries (base64url JSON), signed by `x-signature`. */
export interface UploadPolicy {
  v: 1;
  tenant: string;
  key: string;
  content_type: string;
  max_bytes: number;
  /** Unix seconds. */
  exp: number;
}

export const UPLOAD_FIELDS = {
  key: 'key',
  contentType: 'Content-Type',
  policy: 'policy',
  signature: 'x-signature',
} as const;

/** A purpose-bound key: the docs link secret is shared with the document file links. */
export function deriveObjectSecret(linkSecret: string): string {
  return createHmac('sha256', linkSecret).update('portal/object-store/v1').digest('base64url');
}

const mac = (secret: string, purpose: string, data: string) =>
  createHmac('sha256', secret).update(`${purpose}\n${data}`).digest('base64url');

function sameMac(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function signUploadPolicy(secret: string, policy: UploadPolicy): Record<string, string> {
  const encoded = Buffer.from(JSON.stringify(policy)).toString('base64url');
  return {
    [UPLOAD_FIELDS.key]: policy.key,
    [UPLOAD_FIELDS.contentType]: policy.content_type,
    [UPLOAD_FIELDS.policy]: encoded,
    [UPLOAD_FIELDS.signature]: mac(secret, 'upload', encoded),
  };
}

const denied = (message: string) => new HttpError(403, message);

/**
 * The checks S3 makes before it takes a byte of the file, in its order:
 * signature, expiry, then every condition (key, content type); the tenant of
 * the Host must be the tenant the form was made for. Size is checked while
 * the file streams (fs-store.ts).
 */
export function verifyUploadForm(
  secret: string,
  tenant: string,
  fields: Readonly<Record<string, string | undefined>>,
  now = Date.now(),
): UploadPolicy {
  const encoded = fields[UPLOAD_FIELDS.policy];
  const signature = fields[UPLOAD_FIELDS.signature];
  if (!encoded || !signature || !sameMac(signature, mac(secret, 'upload', encoded)))
    throw denied(OBJECT_MESSAGES.formInvalid);
  let policy: UploadPolicy;
  try {
    policy = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as UploadPolicy;
  } catch {
    throw denied(OBJECT_MESSAGES.formInvalid);
  }
  if (policy.v !== 1 || !parseObjectKey(String(policy.key))) throw denied(OBJECT_MESSAGES.formInvalid);
  if (!(policy.exp * 1000 > now)) throw denied(OBJECT_MESSAGES.formExpired);
  if (policy.tenant !== tenant || parseObjectKey(policy.key)?.tenant !== tenant)
    throw denied(OBJECT_MESSAGES.formInvalid);
  if (fields[UPLOAD_FIELDS.key] !== policy.key) throw denied(OBJECT_MESSAGES.formInvalid);
  if (fields[UPLOAD_FIELDS.contentType] !== policy.content_type) throw denied(OBJECT_MESSAGES.typeNotAllowed);
  return policy;
}

/** What a download link carries besides its signature. */
export interface DownloadGrant {
  key: string;
  filename: string;
  contentType: string;
  /** Unix seconds. */
  exp: number;
}

const downloadData = (tenant: string, g: DownloadGrant) =>
  [tenant, g.key, g.filename, g.contentType, String(g.exp)].join('\n');

/** Query string of a download link: tenant, key, name, type and expiry are all signed. */
export function signDownload(secret: string, tenant: string, grant: DownloadGrant): string {
  const q = new URLSearchParams({
    key: grant.key,
    name: grant.filename,
    type: grant.contentType,
    exp: String(grant.exp),
    sig: mac(secret, 'download', downloadData(tenant, grant)),
  });
  return q.toString();
}

/** Signature first (an edited expiry is invalid, not expired), then the time, then the tenant's key. */
export function verifyDownload(
  secret: string,
  tenant: string,
  query: Readonly<Record<string, unknown>>,
  now = Date.now(),
): DownloadGrant {
  const str = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : '');
  const exp = Number(str('exp'));
  const grant: DownloadGrant = { key: str('key'), filename: str('name'), contentType: str('type'), exp };
  if (
    !grant.key ||
    !grant.filename ||
    !grant.contentType ||
    !Number.isInteger(exp) ||
    !sameMac(str('sig'), mac(secret, 'download', downloadData(tenant, grant)))
  )
    throw denied(OBJECT_MESSAGES.linkInvalid);
  if (exp * 1000 < now) throw denied(OBJECT_MESSAGES.linkExpired);
  assertTenantKey(tenant, grant.key);
  return grant;
}

import { randomUUID } from 'node:crypto';
import { HttpError } from '@portal/core';

/**
 * Object keys: `<tenant>/<area>/<uuid>/<safe filename>`.
 *
 * The key is always built here, never taken from a client: the tenant comes
 * from the signed internal context, the uuid makes a key unguessable and
 * unique, and the filename is reduced to characters that mean the same thing
 * on S3, on a filesystem and in a URL. Every read names the tenant again and
 * is refused unless the key starts with it, so one tenant can never name
 * another's object, whatever a client sends as `s3_key`.
 */
const TENANT = /^[a-z][a-z0-9-]{1,31}$/; // the tenant id of packages/core/src/tenant-config/schema.ts
const AREA = /^[a-z][a-z0-9-]{0,31}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FILENAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$/;
const MAX_FILENAME = 120;

/** A filename as a key segment: ASCII letters, digits, `.`, `_`, `-`; never empty, never dot-leading. */
export function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const ascii = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[._-]+/, '');
  if (!ascii) return 'file';
  if (ascii.length <= MAX_FILENAME) return ascii;
  // Keep the extension: the services check file types by content, but people read names.
  const dot = ascii.lastIndexOf('.');
  const ext = dot > 0 && ascii.length - dot <= 10 ? ascii.slice(dot) : '';
  return ascii.slice(0, MAX_FILENAME - ext.length) + ext;
}

/** A new key for an object of `tenant` in `area` (e.g. 'representments', 'templates', 'onboarding', 'exports'). */
export function newObjectKey(tenant: string, area: string, filename: string): string {
  if (!TENANT.test(tenant)) throw new Error(`not a tenant id: '${tenant}'`);
  if (!AREA.test(area)) throw new Error(`not an object area: '${area}'`);
  return `${tenant}/${area}/${randomUUID()}/${safeFilename(filename)}`;
}

/** True when `key` has exactly the shape newObjectKey makes. */
export function isObjectKey(key: string): boolean {
  const parts = key.split('/');
  if (parts.length !== 4) return false;
  const [tenant, area, id, name] = parts as [string, string, string, string];
  return (
    TENANT.test(tenant) && AREA.test(area) && UUID.test(id) && FILENAME.test(name) && !name.includes('..')
  );
}

/** The parts of a well-formed key, or null. */
export function parseObjectKey(
  key: string,
): { tenant: string; area: string; id: string; filename: string } | null {
  if (!isObjectKey(key)) return null;
  const [tenant, area, id, filename] = key.split('/') as [string, string, string, string];
  return { tenant, area, id, filename };
}

/**
 * The one check before any read, write or link: a malformed key or a key of
 * another tenant is answered like a missing file (no hint that it exists).
 */
export function assertTenantKey(tenant: string, key: string): void {
  const parsed = parseObjectKey(key);
  if (!parsed || parsed.tenant !== tenant) throw new HttpError(404, OBJECT_MESSAGES.notFound);
}

/** Texts a person reads; the S3 store's answers mean the same (MinIO's own are XML). */
export const OBJECT_MESSAGES = {
  notFound: 'The file was not found.',
  tooLarge: 'The file is too large.',
  empty: 'The file is empty.',
  noFile: 'The upload has no file.',
  interrupted: 'The upload was interrupted. Please try again.',
  formInvalid: 'The upload form is not valid.',
  formExpired: 'The upload form has expired. Please try again.',
  typeNotAllowed: 'The file type is not allowed.',
  linkInvalid: 'The download link is not valid.',
  linkExpired: 'The download link has expired.',
} as const;

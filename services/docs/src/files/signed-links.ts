import { createHmac, timingSafeEqual } from 'node:crypto';
import { DOC_LINK_TTL_SECONDS } from '@portal/contracts';

/**
 * Short-lived download links: `/api/docs/files/{key}?exp={unix s}&sig={hmac}`
 * where the HMAC-SHA256 covers tenant, key and expiry, so a link works only
 * on its tenant's host, for that file, until it expires.
 */
const FILES_PATH = '/docs/files/';

const mac = (secret: string, tenant: string, key: string, exp: number) =>
  createHmac('sha256', secret).update(`${tenant}\n${key}\n${exp}`).digest('base64url');

interface SignedLink {
  /** Gateway-relative URL the browser opens. */
  link: string;
  expiresAt: Date;
}

export function signFileLink(
  secret: string,
  tenant: string,
  key: string,
  now = Date.now(),
  ttlSeconds = DOC_LINK_TTL_SECONDS,
): SignedLink {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  const sig = mac(secret, tenant, key, exp);
  const path = key.split('/').map(encodeURIComponent).join('/');
  return { link: `/api${FILES_PATH}${path}?exp=${exp}&sig=${sig}`, expiresAt: new Date(exp * 1000) };
}

type LinkCheck = { ok: true } | { ok: false; reason: 'invalid' | 'expired' };

/** The signature first (a tampered expiry is invalid, not expired), then the time. */
export function verifyFileLink(
  secret: string,
  tenant: string,
  key: string,
  exp: number,
  sig: string,
  now = Date.now(),
): LinkCheck {
  const expected = Buffer.from(mac(secret, tenant, key, exp));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'invalid' };
  if (exp * 1000 < now) return { ok: false, reason: 'expired' };
  return { ok: true };
}

export { resolveDocsLinkSecret } from '@portal/storage';

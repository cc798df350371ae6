import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook secrets and signatures. A receiver verifies
 * `Portal-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "${t}.${body}" under the secret>`
 * (the Stripe scheme: the timestamp in the signed text stops replays of old bodies).
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/** Secrets are kept encrypted (AES-256-GCM) under a key derived from the internal context secret. */
function keyOf(contextSecret: string): Buffer {
  return createHmac('sha256', contextSecret).update('portal webhook secrets v1').digest();
}

export function sealSecret(contextSecret: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(contextSecret), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    data.toString('base64url'),
  ].join('.');
}

export function openSecret(contextSecret: string, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !data) throw new Error('Unknown webhook secret format');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(contextSecret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

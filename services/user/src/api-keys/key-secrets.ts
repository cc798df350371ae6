import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX } from '@portal/contracts';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new key id: 8 characters of [a-z0-9] (about 41 bits: ids are unique per tenant, retried on a clash). */
export function newKeyId(): string {
  let id = '';
  for (let i = 0; i < 8; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

/** A whole key: prefix, id, and 32 random bytes as base64url (256 bits: brute force is out of reach). */
export function newKey(id: string): string {
  return `${API_KEY_PREFIX}${id}_${randomBytes(32).toString('base64url')}`;
}

/** What is stored of a key. One SHA-256 suffices for a 256-bit random secret (no password to stretch). */
export function sha256(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** Constant-time comparison of a stored hash with the one the gateway sends. */
export function sameHash(stored: Buffer, givenHex: string): boolean {
  const given = Buffer.from(givenHex, 'hex');
  return given.length === stored.length && timingSafeEqual(stored, given);
}

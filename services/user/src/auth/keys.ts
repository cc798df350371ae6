import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';
import type { Env } from '@portal/core';

/** The key pair that signs access tokens, and its public JWK. */
export interface SigningKey {
  alg: 'EdDSA' | 'RS256';
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  jwk: JWK;
}

/**
 * JWT_PRIVATE_KEY_FILE (Ed25519 or RSA PEM) when set; otherwise, outside
 * production, an Ed25519 key generated once into DATA_DIR/keys (mode 600,
 * never committed) and shared by every local process.
 */
export async function loadSigningKey(
  env: Pick<Env, 'JWT_PRIVATE_KEY_FILE' | 'DATA_DIR' | 'NODE_ENV'>,
): Promise<SigningKey> {
  let file = env.JWT_PRIVATE_KEY_FILE;
  if (!file) {
    if (env.NODE_ENV === 'production') throw new Error('JWT_PRIVATE_KEY_FILE must be set in production');
    file = join(env.DATA_DIR, 'keys', 'jwt-signing.pem');
    ensurePemKey(file);
  }
  const privateKey = createPrivateKey(readFileSync(file, 'utf8'));
  const type = privateKey.asymmetricKeyType;
  if (type !== 'ed25519' && type !== 'rsa')
    throw new Error(`${file}: access tokens need an Ed25519 or RSA key, got ${type}`);
  const publicKey = createPublicKey(privateKey);
  const alg = type === 'ed25519' ? 'EdDSA' : 'RS256';
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { alg, kid, privateKey, publicKey, jwk: { ...jwk, kid, alg, use: 'sig' } };
}

/** Creates an Ed25519 PEM private key at `file` unless it exists (race-safe across processes). */
export function ensurePemKey(file: string): void {
  if (existsSync(file)) return;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  try {
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process won the race: use its key.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(file, 0o600);
}

export function jwks(key: SigningKey): { keys: JWK[] } {
  return { keys: [key.jwk] };
}

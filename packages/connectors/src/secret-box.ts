import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Env } from '@portal/core';

/**
 * Connector secrets at rest (design §14): AES-256-GCM with the key of
 * CONNECTOR_KEY (32 bytes, base64 or hex). A sealed value is
 * `v1.<iv>.<tag>.<ciphertext>` (base64url), bound to its purpose and owner by
 * the additional authenticated data, so a sealed API key copied into another
 * connection's row (or its webhook secret column) does not open.
 */
const VERSION = 'v1';

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromKey(key: string): SecretBox {
    const trimmed = key.trim();
    const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
      ? Buffer.from(trimmed, 'hex')
      : Buffer.from(trimmed, 'base64url');
    if (bytes.length !== 32)
      throw new Error('CONNECTOR_KEY must be 32 bytes (64 hex or 43 base64 characters)');
    // The .env.example placeholder (all zeros) and keys like it are not keys.
    if (bytes.every((b) => b === bytes[0]))
      throw new Error('CONNECTOR_KEY is a placeholder: generate a random key');
    return new SecretBox(bytes);
  }

  seal(plain: string, aad: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [VERSION, ...parts].join('.');
  }

  /** Throws when the value was sealed with another key or for another purpose, or was altered. */
  open(sealed: string, aad: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/**
 * CONNECTOR_KEY, or outside production a random key generated once into
 * DATA_DIR/keys (never committed), shared by the local processes as the other
 * development keys are.
 */
export function resolveConnectorKey(env: Pick<Env, 'CONNECTOR_KEY' | 'DATA_DIR' | 'NODE_ENV'>): string {
  if (env.CONNECTOR_KEY) return env.CONNECTOR_KEY;
  if (env.NODE_ENV === 'production') throw new Error('CONNECTOR_KEY must be set in production');
  const file = join(env.DATA_DIR, 'keys', 'connector.key');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another local process wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
}

const boxes = new Map<string, SecretBox>();
/** The process's box (one per key). */
export function connectorSecretBox(env: Pick<Env, 'CONNECTOR_KEY' | 'DATA_DIR' | 'NODE_ENV'>): SecretBox {
  const key = resolveConnectorKey(env);
  let box = boxes.get(key);
  if (!box) {
    box = SecretBox.fromKey(key);
    boxes.set(key, box);
  }
  return box;
}

/** What a screen may show of a secret. */
export const lastFour = (secret: string) => secret.slice(-4);

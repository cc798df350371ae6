import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Env } from '@portal/core';

/**
 * The docs link secret: DOCS_LINK_SECRET, or in development a random secret
 * generated once into DATA_DIR (never committed), like the internal context
 * secret. The filesystem store's forms and links are signed with a key
 * derived from it and checked by the docs service, so every process that
 * opens the store must resolve the same one.
 */
export function resolveDocsLinkSecret(env: Pick<Env, 'DOCS_LINK_SECRET' | 'DATA_DIR' | 'NODE_ENV'>): string {
  if (env.DOCS_LINK_SECRET) return env.DOCS_LINK_SECRET;
  if (env.NODE_ENV === 'production') throw new Error('DOCS_LINK_SECRET must be set in production');
  const file = join(env.DATA_DIR, 'keys', 'docs-link.secret');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process of the same DATA_DIR wrote it first.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
}

import { randomBytes } from 'node:crypto';
import type { Db, Env, Logger } from '@portal/core';
import { isObjectKey, openObjectStore, type ObjectStore } from '@portal/storage';

/**
 * The seed step's copy of the demo files into the configured object store
 * (runner: migrate, and `npm start` before the services start). Never part of
 * a service's start: about 780 puts into an empty S3 bucket outlast Fastify's
 * plugin timeout. Runs on every migrate, so a new empty bucket is filled.
 */
export async function copySeedObjects(db: Db, env: Env, log: Logger): Promise<number> {
  // The copy signs no upload form or download link: a throwaway key spares migrate the links' secret.
  const store = await openObjectStore(env, log, { linkSecret: randomBytes(32).toString('base64url') });
  try {
    return await syncSeedObjects(db, store, log);
  } finally {
    await store.close();
  }
}

/**
 * Copies the demo files the seed left in docs.objects under object-store keys
 * (templates, issuer documents: seed-templates.ts) into the object store when
 * they are missing there. Idempotent: a put is whole or nothing, and a present
 * object is left alone.
 */
export async function syncSeedObjects(db: Db, store: ObjectStore, log: Logger): Promise<number> {
  const { rows } = await db.query<{ key: string; tenant_id: string }>(
    `select key, tenant_id from docs.objects where key ~ '^[a-z][a-z0-9-]*/(templates|issuer-docs)/' order by key`,
  );
  let copied = 0;
  const keys = rows.filter((r) => isObjectKey(r.key));
  for (let i = 0; i < keys.length; i += 16) {
    await Promise.all(
      keys.slice(i, i + 16).map(async ({ key, tenant_id: tenant }) => {
        if (await store.head(tenant, key)) return;
        const { rows: files } = await db.query<{ content: Uint8Array; content_type: string }>(
          `select content, content_type from docs.objects where key = $1 and tenant_id = $2`,
          [key, tenant],
        );
        const file = files[0];
        if (!file) return;
        const bytes = Buffer.from(file.content);
        await store.put(tenant, key, bytes, { contentType: file.content_type, contentLength: bytes.length });
        copied++;
      }),
    );
  }
  if (copied) log.info({ copied }, 'object store: demo files copied from the seed');
  return copied;
}

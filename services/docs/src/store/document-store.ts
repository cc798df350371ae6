import type { Queryable } from '@portal/core';

interface StoredObject {
  content: Buffer;
  contentType: string;
  size: number;
}

/**
 * Where document bytes live, by key. The one implementation today keeps them
 * in Postgres (docs.objects): the embedded default and the tests need nothing
 * else, and a file is stored in the same transaction as its metadata row.
 */
export interface DocumentStore {
  put(tx: Queryable, tenant: string, key: string, content: Buffer, contentType: string): Promise<void>;
  /** The object of this tenant, or null (unknown key, another tenant's key, deleted). */
  get(tenant: string, key: string): Promise<StoredObject | null>;
  delete(tx: Queryable, tenant: string, key: string): Promise<void>;
}

/** DocumentStore on a bytea column. */
export class PgDocumentStore implements DocumentStore {
  constructor(private readonly db: Queryable) {}

  async put(tx: Queryable, tenant: string, key: string, content: Buffer, contentType: string) {
    await tx.query(
      `insert into docs.objects (key, tenant_id, content_type, size, content) values ($1, $2, $3, $4, $5)`,
      [key, tenant, contentType, content.length, content],
    );
  }

  async get(tenant: string, key: string): Promise<StoredObject | null> {
    const { rows } = await this.db.query<{ content: Uint8Array; content_type: string; size: number }>(
      `select content, content_type, size from docs.objects where key = $1 and tenant_id = $2`,
      [key, tenant],
    );
    const row = rows[0];
    if (!row) return null;
    return { content: Buffer.from(row.content), contentType: row.content_type, size: Number(row.size) };
  }

  async delete(tx: Queryable, tenant: string, key: string) {
    await tx.query(`delete from docs.objects where key = $1 and tenant_id = $2`, [key, tenant]);
  }
}

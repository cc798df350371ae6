import type { ApiKey, ApiKeyScope, ApiKeyStatus } from '@portal/contracts';
import { API_KEY_PREFIX } from '@portal/contracts';
import type { Queryable } from '@portal/core';

export interface KeyRow {
  tenant: string;
  id: string;
  merchant_id: string | number;
  name: string;
  scopes: ApiKeyScope[];
  secret_sha256: Buffer;
  last_four: string;
  created_at: Date | string;
  created_by: string | number;
  creator_username: string | null;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  last_used_at: Date | string | null;
  last_used_ip: string | null;
  rotated_from: string | null;
  grace_until: Date | string | null;
}

const COLUMNS = `k.tenant, k.id, k.merchant_id, k.name, k.scopes, k.secret_sha256, k.last_four, k.created_at,
  k.created_by, (select u.username from users.users u where u.id = k.created_by) as creator_username,
  k.expires_at, k.revoked_at, k.last_used_at, k.last_used_ip, k.rotated_from, k.grace_until`;

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
const ms = (v: Date | string | null) => (v === null ? null : new Date(v).getTime());

/** When a key stops working: its expiry or the end of its rotation grace, whichever comes first. */
export function validUntil(row: KeyRow): Date | null {
  const ends = [ms(row.expires_at), ms(row.grace_until)].filter((v): v is number => v !== null);
  return ends.length ? new Date(Math.min(...ends)) : null;
}

export function statusOf(row: KeyRow, now = Date.now()): ApiKeyStatus {
  if (row.revoked_at !== null) return 'revoked';
  const until = validUntil(row);
  if (until !== null && until.getTime() <= now) return 'expired';
  return row.grace_until !== null ? 'grace' : 'active';
}

/** The row as lists show it: never the hash. */
export function toApiKey(row: KeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: `${API_KEY_PREFIX}${row.id}`,
    last_four: row.last_four,
    merchant_id: Number(row.merchant_id),
    scopes: row.scopes,
    created_at: iso(row.created_at)!,
    created_by:
      row.creator_username === null ? null : { id: Number(row.created_by), username: row.creator_username },
    expires_at: iso(row.expires_at),
    revoked_at: iso(row.revoked_at),
    last_used_at: iso(row.last_used_at),
    last_used_ip: row.last_used_ip,
    rotated_from: row.rotated_from,
    grace_until: iso(row.grace_until),
    status: statusOf(row),
  };
}

export interface NewKey {
  tenant: string;
  id: string;
  merchantId: number;
  name: string;
  scopes: ApiKeyScope[];
  sha256: Buffer;
  lastFour: string;
  createdBy: number;
  expiresAt: string | null;
  rotatedFrom: string | null;
}

/** Inserts a key; false when the id is taken (the caller draws another). */
export async function insertKey(db: Queryable, k: NewKey): Promise<boolean> {
  const { rowCount } = await db.query(
    `insert into users.api_keys
       (tenant, id, merchant_id, name, scopes, secret_sha256, last_four, created_by, expires_at, rotated_from)
     values ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9, $10)
     on conflict (tenant, id) do nothing`,
    [
      k.tenant,
      k.id,
      k.merchantId,
      k.name,
      k.scopes,
      k.sha256,
      k.lastFour,
      k.createdBy,
      k.expiresAt,
      k.rotatedFrom,
    ],
  );
  return rowCount === 1;
}

export async function findKey(db: Queryable, tenant: string, id: string): Promise<KeyRow | null> {
  const { rows } = await db.query<KeyRow>(
    `select ${COLUMNS} from users.api_keys k where k.tenant = $1 and k.id = $2`,
    [tenant, id],
  );
  return rows[0] ?? null;
}

/** Keys of some merchants (null: the whole tenant), newest first. */
export async function listKeys(
  db: Queryable,
  tenant: string,
  merchantIds: number[] | null,
  page: { start: number; limit: number },
): Promise<{ rows: KeyRow[]; total: number }> {
  const params: unknown[] = [tenant];
  let where = 'k.tenant = $1';
  if (merchantIds !== null) {
    params.push(merchantIds);
    where += ` and k.merchant_id = any($2::bigint[])`;
  }
  const count = await db.query<{ n: number }>(
    `select count(*)::int as n from users.api_keys k where ${where}`,
    params,
  );
  const { rows } = await db.query<KeyRow>(
    `select ${COLUMNS} from users.api_keys k where ${where}
      order by k.created_at desc, k.id limit ${page.limit} offset ${page.start}`,
    params,
  );
  return { rows, total: count.rows[0]?.n ?? 0 };
}

export async function revokeKey(db: Queryable, tenant: string, id: string, by: number): Promise<void> {
  await db.query(
    `update users.api_keys set revoked_at = now(), revoked_by = $3
      where tenant = $1 and id = $2 and revoked_at is null`,
    [tenant, id, by],
  );
}

/** The old key of a rotation: valid for `graceSeconds` more (0: revoked now). */
export async function endWithGrace(
  db: Queryable,
  tenant: string,
  id: string,
  graceSeconds: number,
  by: number,
): Promise<void> {
  if (graceSeconds === 0) return revokeKey(db, tenant, id, by);
  await db.query(
    `update users.api_keys
        set grace_until = least(coalesce(grace_until, 'infinity'), now() + make_interval(secs => $3))
      where tenant = $1 and id = $2`,
    [tenant, id, graceSeconds],
  );
}

/** Records the last use, at most once a minute per key whatever the number of gateways. */
export async function touchKey(db: Queryable, tenant: string, id: string, ip: string | null): Promise<void> {
  await db.query(
    `update users.api_keys set last_used_at = now(), last_used_ip = $3
      where tenant = $1 and id = $2 and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
    [tenant, id, ip],
  );
}

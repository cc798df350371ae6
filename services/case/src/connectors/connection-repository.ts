import type { ConnectionView } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { getJobStatus } from '@portal/jobs';

/** A connection row as the service uses it (sealed secrets included; never sent to a client). */
export interface ConnectionRow {
  id: string;
  tenant_id: string;
  merchant_id: number;
  processor: 'stripe';
  account_id: string;
  account_name: string | null;
  api_key_sealed: string;
  api_key_last4: string;
  webhook_secret_sealed: string | null;
  mid_ids: number[];
  created_at: string;
  last_event_at: string | null;
  backfill_job_id: string | null;
}

const COLUMNS = `id, tenant_id, merchant_id::int as merchant_id, processor, account_id, account_name, api_key_sealed,
  api_key_last4, webhook_secret_sealed, mid_ids::int[] as mid_ids, backfill_job_id,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at,
  to_char(last_event_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as last_event_at`;

export async function connectionById(
  db: Queryable,
  tenant: string,
  id: string,
): Promise<ConnectionRow | null> {
  const { rows } = await db.query<ConnectionRow>(
    `select ${COLUMNS} from cases.connections where tenant_id = $1 and id = $2`,
    [tenant, id],
  );
  return rows[0] ?? null;
}

export async function connectionsOfMerchant(db: Queryable, tenant: string, merchantId: number) {
  const { rows } = await db.query<ConnectionRow>(
    `select ${COLUMNS} from cases.connections where tenant_id = $1 and merchant_id = $2 order by created_at, id`,
    [tenant, merchantId],
  );
  return rows;
}

export async function insertConnection(
  tx: Queryable,
  row: Omit<ConnectionRow, 'created_at' | 'last_event_at' | 'backfill_job_id'> & {
    created_by: number | null;
  },
): Promise<boolean> {
  const { rows } = await tx.query(
    `insert into cases.connections (id, tenant_id, merchant_id, processor, account_id, account_name, api_key_sealed,
       api_key_last4, webhook_secret_sealed, mid_ids, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     on conflict (tenant_id, processor, account_id) do nothing returning id`,
    [
      row.id,
      row.tenant_id,
      row.merchant_id,
      row.processor,
      row.account_id,
      row.account_name,
      row.api_key_sealed,
      row.api_key_last4,
      row.webhook_secret_sealed,
      row.mid_ids,
      row.created_by,
    ],
  );
  return rows.length > 0;
}

export async function setWebhookSecret(
  tx: Queryable,
  tenant: string,
  merchantId: number,
  id: string,
  sealed: string,
) {
  const { rows } = await tx.query(
    `update cases.connections set webhook_secret_sealed = $4 where tenant_id = $1 and merchant_id = $2 and id = $3
     returning id`,
    [tenant, merchantId, id, sealed],
  );
  return rows.length > 0;
}

export async function setBackfillJob(tx: Queryable, id: string, jobId: string) {
  await tx.query(`update cases.connections set backfill_job_id = $2 where id = $1`, [id, jobId]);
}

/** Deletes the connection and with it its sealed secrets and events; its cases stay, no longer owned. */
export async function deleteConnection(tx: Queryable, tenant: string, merchantId: number, id: string) {
  const { rows } = await tx.query(
    `delete from cases.connections where tenant_id = $1 and merchant_id = $2 and id = $3 returning id`,
    [tenant, merchantId, id],
  );
  return rows.length > 0;
}

/** What a screen may see: no secret, the key's last four, the backfill's state. */
export async function toView(db: Queryable, row: ConnectionRow): Promise<ConnectionView> {
  const mids = await db.query<{ id: number; mid: string }>(
    `select id::int as id, mid from cases.mids where tenant_id = $1 and id = any($2::bigint[]) order by array_position($2::bigint[], id)`,
    [row.tenant_id, row.mid_ids],
  );
  const job = row.backfill_job_id ? await getJobStatus(db, row.tenant_id, row.backfill_job_id) : null;
  return {
    id: row.id,
    processor: row.processor,
    merchant_id: row.merchant_id,
    account_id: row.account_id,
    account_name: row.account_name,
    api_key_last4: row.api_key_last4,
    has_webhook_secret: row.webhook_secret_sealed !== null,
    mids: mids.rows,
    webhook_path: `/api/connectors/${row.processor}/${row.id}/events`,
    created_at: row.created_at,
    last_event_at: row.last_event_at,
    backfill: job
      ? { job_id: job.id, status: job.state, progress: job.progress, message: job.error ?? job.message }
      : null,
  };
}

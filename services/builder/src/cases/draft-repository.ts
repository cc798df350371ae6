import type { Queryable } from '@portal/core';

/** A case's saved builder answers (migrations/001: builder.case_drafts, builder.case_values). */
export interface Draft {
  product_id: number | null;
  sale_type: number | null;
  type_id: number | null;
  is_shippable: boolean;
  is_service: boolean;
  is_subscription: boolean;
  page: number;
  updated_at: string;
  updated_by: string | null;
  values: Map<number, string | null>;
}

export interface DraftWrite {
  tenant: string;
  caseId: number;
  merchantId: number;
  productId: number | null;
  saleType: number | null;
  typeId: number | null;
  isShippable: boolean;
  isService: boolean;
  isSubscription: boolean;
  page: number;
  username: string | null;
  userId: number | null;
  values: ReadonlyArray<{ id: number; value: string | null }>;
}

const ISO = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export async function loadDraft(db: Queryable, tenant: string, caseId: number): Promise<Draft | null> {
  const { rows } = await db.query<Omit<Draft, 'values'>>(
    `select product_id, sale_type, type_id, is_shippable, is_service, is_subscription, page,
            ${ISO('updated_at')} as updated_at, updated_by
       from builder.case_drafts where tenant_id = $1 and case_id = $2`,
    [tenant, caseId],
  );
  const row = rows[0];
  if (!row) return null;
  const values = await db.query<{ field_id: number; value: string | null }>(
    `select field_id, value from builder.case_values where tenant_id = $1 and case_id = $2`,
    [tenant, caseId],
  );
  return {
    ...row,
    product_id: row.product_id === null ? null : Number(row.product_id),
    values: new Map(values.rows.map((v) => [Number(v.field_id), v.value])),
  };
}

/**
 * Upserts the draft and the page's values in the caller's transaction; the
 * furthest page reached is kept. Answers the new last-updated stamp.
 */
export async function saveDraft(tx: Queryable, d: DraftWrite): Promise<{ timestamp: string }> {
  const { rows } = await tx.query<{ timestamp: string }>(
    `insert into builder.case_drafts (tenant_id, case_id, merchant_id, product_id, sale_type, type_id, is_shippable,
       is_service, is_subscription, page, updated_at, updated_by, updated_by_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now(), $11, $12)
     on conflict (tenant_id, case_id) do update set product_id = $4, sale_type = $5, type_id = $6, is_shippable = $7,
       is_service = $8, is_subscription = $9, page = greatest(builder.case_drafts.page, $10), updated_at = now(),
       updated_by = $11, updated_by_id = $12
     returning ${ISO('updated_at')} as timestamp`,
    [
      d.tenant,
      d.caseId,
      d.merchantId,
      d.productId,
      d.saleType,
      d.typeId,
      d.isShippable,
      d.isService,
      d.isSubscription,
      d.page,
      d.username,
      d.userId,
    ],
  );
  for (const v of d.values) {
    await tx.query(
      `insert into builder.case_values (tenant_id, case_id, field_id, value) values ($1, $2, $3, $4)
       on conflict (tenant_id, case_id, field_id) do update set value = $4`,
      [d.tenant, d.caseId, v.id, v.value],
    );
  }
  return rows[0]!;
}

/**
 * Copies a draft and its values onto other cases (the step 4 template),
 * replacing their answers; the case's own facts (skipFields) stay the
 * target's, and a product of another merchant is not carried over.
 */
export async function copyDraft(
  tx: Queryable,
  tenant: string,
  fromCase: number,
  to: ReadonlyArray<{ caseId: number; merchantId: number }>,
  user: { username: string | null; userId: number | null },
  skipFields: readonly number[],
): Promise<void> {
  for (const target of to) {
    await tx.query(`delete from builder.case_drafts where tenant_id = $1 and case_id = $2`, [
      tenant,
      target.caseId,
    ]);
    await tx.query(
      `insert into builder.case_drafts (tenant_id, case_id, merchant_id, product_id, sale_type, type_id, is_shippable,
         is_service, is_subscription, page, updated_at, updated_by, updated_by_id)
       select tenant_id, $3, $4, case when merchant_id = $4 then product_id end, sale_type, type_id, is_shippable, is_service, is_subscription, page, now(), $5, $6
         from builder.case_drafts where tenant_id = $1 and case_id = $2`,
      [tenant, fromCase, target.caseId, target.merchantId, user.username, user.userId],
    );
    await tx.query(
      `insert into builder.case_values (tenant_id, case_id, field_id, value)
       select tenant_id, $3, field_id, value from builder.case_values
        where tenant_id = $1 and case_id = $2 and not (field_id = any($4::int[]))`,
      [tenant, fromCase, target.caseId, [...skipFields]],
    );
  }
}

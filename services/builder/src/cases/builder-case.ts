import {
  CATALOGUE_FIELDS,
  FIELD_GROUPS,
  groupsForPage,
  type BuilderCase,
  type CaseDetail,
} from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { productFor } from '../products/product-repository';
import type { Draft } from './draft-repository';

/** A case property as a field value (dates as yyyy-MM-dd, numbers as text). */
function caseValue(c: CaseDetail, prop: string): string | null {
  const v = (c as unknown as Record<string, unknown>)[prop];
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) return v.slice(0, 10);
  return String(v);
}

/** The value a field shows: the saved answer, else the case's own fact (spec 2 §2.7 prefill). */
export function valueOf(c: CaseDetail, draft: Draft | null, id: number): string | null {
  if (draft?.values.has(id)) return draft.values.get(id) ?? null;
  const prefill = CATALOGUE_FIELDS.get(id)?.prefill;
  return prefill ? caseValue(c, prefill) : null;
}

/** The facts that decide a page's groups (the saved draft, its product's category, the reason category). */
export async function pageGroups(
  db: Queryable,
  tenant: string,
  c: CaseDetail,
  draft: Draft | null,
  page: number,
): Promise<number[]> {
  let categoryName: string | null = null;
  if (draft?.product_id) {
    const product = await productFor(db, {
      tenant,
      merchantId: c.merchant_id,
      midId: c.mid_id,
      id: draft.product_id,
    });
    categoryName = product?.category?.name ?? null;
  }
  return groupsForPage(page, {
    sale_type: draft?.sale_type ?? null,
    type_id: draft?.type_id ?? null,
    is_subscription: draft?.is_subscription ?? false,
    category_name: categoryName,
    reason_category: c.reason_category,
  });
}

/** The builder case of spec 2 §3 for one page. */
export async function builderCase(
  db: Queryable,
  tenant: string,
  c: CaseDetail,
  draft: Draft | null,
  page: number,
): Promise<BuilderCase> {
  const ids = await pageGroups(db, tenant, c, draft, page);
  const product = draft?.product_id
    ? await productFor(db, { tenant, merchantId: c.merchant_id, midId: c.mid_id, id: draft.product_id })
    : null;
  const groups = ids.map((gid) => {
    const g = FIELD_GROUPS.find((x) => x.id === gid)!;
    return {
      id: g.id,
      name: g.name,
      fields: g.fields.map((f) => ({
        id: f.id,
        name: f.name,
        label: f.label,
        type: f.type,
        is_required: f.required ?? false,
        full_width: f.full ?? false,
        endpoint: f.endpoint ?? null,
        value: valueOf(c, draft, f.id),
      })),
    };
  });
  return {
    id: c.id,
    mid_id: c.mid_id,
    merchant_id: c.merchant_id,
    page,
    product_id: product?.id ?? null,
    product: product
      ? { id: product.id, name: product.name, type: product.type_id, category: product.category?.name ?? '' }
      : null,
    category_id: product?.category?.id ?? null,
    sale_type: draft?.sale_type ?? null,
    type_id: draft?.type_id ?? null,
    is_shippable: draft?.is_shippable ?? false,
    is_service: draft?.is_service ?? false,
    is_subscription: draft?.is_subscription ?? false,
    groups,
    reason_code: c.reason_code,
    reason_code_description: c.reason_code_message,
    reason_category: c.reason_category,
    case_no: c.case_no,
    cc_no: c.cc_no,
    dispute_amt: c.dispute_amt,
    dispute_currency: c.dispute_currency,
    date_trans: c.date_trans,
    date_created: c.date_created,
    date_due: c.date_due,
    status_id: c.status_id,
    assigned_user_id: c.assigned_user?.id ?? null,
    last_updated: draft ? { timestamp: draft.updated_at, username: draft.updated_by } : null,
  };
}

import { CATALOGUE_FIELDS, type BuilderEvidenceAnswers, type InternalContext } from '@portal/contracts';
import { lookupNames, type CaseClient, type Queryable } from '@portal/core';
import { loadDraft } from '../cases/draft-repository';

/**
 * A case's saved builder answers by catalogue field name, and the product
 * chosen on step 1 (issue 32): what a processor's evidence fields are made
 * of. Only what the user saved: the case's own facts (prefills) are the
 * processor's already, and an empty answer is left out. A lookup select's
 * answer is the name it picks (a country's name, as the processor reads an
 * address), asked of the case service, not its id.
 */
export async function evidenceAnswers(
  db: Queryable,
  cases: Pick<CaseClient, 'lookup'>,
  ctx: InternalContext,
  caseId: number,
): Promise<BuilderEvidenceAnswers> {
  const tenant = ctx.tenant;
  const draft = await loadDraft(db, tenant, caseId);
  if (!draft)
    return { case_id: caseId, has_answers: false, answers: {}, product: null, is_subscription: false };
  const saved = [...draft.values].flatMap(([id, value]) => {
    const field = CATALOGUE_FIELDS.get(id);
    return field && value !== null && value.trim() !== '' ? [{ field, value: value.trim() }] : [];
  });
  const names = await lookupNames(
    cases,
    ctx,
    saved.map((s) => s.field.endpoint),
  );
  const answers: Record<string, string> = {};
  for (const { field, value } of saved)
    answers[field.name] = names.get(field.endpoint ?? '')?.get(value) ?? value;
  return {
    case_id: caseId,
    has_answers: true,
    answers,
    product: draft.product_id ? await productOf(db, tenant, caseId, draft.product_id) : null,
    is_subscription: draft.is_subscription,
  };
}

/** The draft's product (of the draft's own merchant: a copied draft never carries another's). */
async function productOf(db: Queryable, tenant: string, caseId: number, productId: number) {
  const { rows } = await db.query<{ name: string; description: string | null; type_id: number }>(
    `select p.name, p.description, p.type_id from builder.products p
       join builder.case_drafts d on d.tenant_id = p.tenant_id and d.merchant_id = p.merchant_id
      where p.tenant_id = $1 and d.case_id = $2 and p.id = $3`,
    [tenant, caseId, productId],
  );
  const p = rows[0];
  return p ? { name: p.name, description: p.description, type_id: Number(p.type_id) } : null;
}

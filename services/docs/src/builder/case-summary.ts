import type { BuilderCase, BuilderField, CaseDetail, InternalContext } from '@portal/contracts';
import { isLookupPath, lookupNames, type CaseClient, type LookupPath } from '@portal/core';
import type { GeneratedDocument } from '../representment/accept-representment';
import { caseSummaryPdf } from './case-summary-pdf';

/**
 * The builder's case summary of a case, for the preview and the submission
 * alike (so both are the same bytes): the builder's answers, with a select
 * answer of a lookup printed by its name rather than its id.
 *
 * The lookups are the case service's (design §13): what an id names is asked
 * of it through its own lookup routes, with the caller's context, as the case
 * itself is; the docs service never reads its tables. The names are printed
 * as the summary prints the case's own facts: a reason code as its code and
 * description (the 'Reason Code' line, and the case's 'Reason Code Message'),
 * a currency as its code (the 'Dispute Amount' line), a country by its name.
 * An id the lookup no longer holds, and a select of no lookup, print the
 * value as saved.
 */
export async function caseSummary(
  cases: Pick<CaseClient, 'lookup'>,
  ctx: InternalContext,
  c: CaseDetail,
  pages: readonly BuilderCase[],
): Promise<GeneratedDocument> {
  const labels = await answerLabels(cases, ctx, pages);
  const pdf = await caseSummaryPdf(pages, { merchant: c.merchant_name, preparedBy: ctx.username, labels });
  return { filename: `case-summary-${c.id}.pdf`, ...pdf };
}

const lookupAnswer = (f: BuilderField): f is BuilderField & { endpoint: LookupPath; value: string } =>
  f.type === 'select' && isLookupPath(f.endpoint) && f.value !== null && f.value !== '';

/**
 * The printed names of the answered lookup selects, by field id: each lookup
 * the answers name is asked once. A value the lookup does not hold has no
 * entry (the summary prints the value itself).
 */
export async function answerLabels(
  cases: Pick<CaseClient, 'lookup'>,
  ctx: InternalContext,
  pages: readonly BuilderCase[],
): Promise<Map<number, string>> {
  const answers = pages.flatMap((p) => p.groups.flatMap((g) => g.fields)).filter(lookupAnswer);
  const names = await lookupNames(
    cases,
    ctx,
    answers.map((f) => f.endpoint),
  );
  const labels = new Map<number, string>();
  for (const f of answers) {
    const name = names.get(f.endpoint)?.get(f.value.trim());
    if (name) labels.set(f.id, name);
  }
  return labels;
}

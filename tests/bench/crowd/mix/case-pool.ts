import type { CaseRow } from '@portal/contracts';
import { listOf, expectStatus, type Answer } from './http';
import { pick, randomInt } from './random';
import { get, type OpContext } from './session';
import { rememberCase, type KnownCase, type MixState } from './state';

/** The case rows of list answers and write answers, kept in the user's memory to act on later. */

export function knownCaseOf(r: CaseRow): KnownCase {
  return {
    id: r.id,
    caseNo: r.case_no,
    orderId: r.order_id,
    arn: r.arn,
    lastFour: r.cc_last_four,
    mid: r.mid,
    midId: r.mid_id,
    merchantId: r.merchant_id,
    merchantName: r.merchant_name,
    statusId: r.status_id,
    statusGroupId: r.status_group_id,
    verdictId: r.verdict_id,
    reasonCodeId: r.reason_code_id,
    currencyId: r.dispute_currency_id,
    disputeAmt: r.dispute_amt,
    processorInvoiceId: r.processor_invoice_id,
    flag: r.flag ? { id: r.flag.id, isFlagged: r.flag.is_flagged } : null,
    assignedUserId: r.assigned_user?.id ?? null,
    canUpload: r.properties.is_upload_representment_enabled,
    canAssign: r.properties.is_assign_user_enabled,
    hasDocument: r.properties.is_doc_available,
  };
}

/** Remembers the rows of a list or write answer ({data: CaseRow[]}); answers them. */
export function rememberRows(state: MixState, answer: Answer): KnownCase[] {
  const rows = (answer.json as { data?: CaseRow[] } | undefined)?.data;
  if (!Array.isArray(rows)) return [];
  const known = rows.map(knownCaseOf);
  for (const c of known) rememberCase(state, c);
  return known;
}

/** Known cases matching `want`, newest first. */
export function knownCases(state: MixState, want: (c: KnownCase) => boolean): KnownCase[] {
  return [...state.cases.values()].filter(want).reverse();
}

/**
 * A list the user opens to find cases to act on (the case-management tab of
 * that state, or the chargebacks list), at a random page among the first
 * `pages` so that simulated users of one account spread their work.
 */
export async function loadCasesToWork(
  ctx: OpContext,
  filterGroup: 'new_cases' | 'working_cases' | null,
  pages = 20,
): Promise<KnownCase[]> {
  const limit = 50;
  const page = randomInt(0, pages - 1);
  const params = {
    intent: filterGroup ? 'case-management' : 'chargebacks',
    filter_group: filterGroup ?? undefined,
    start: page * limit,
    limit,
  };
  let answer = await get(ctx, '/api/cm/cases', params);
  expectStatus(answer, 200);
  const { data, total } = listOf<CaseRow>(answer);
  if (data.length === 0 && total > 0) {
    // Fewer cases than that page: the last page, as the grid does with a link past the end.
    answer = await get(ctx, '/api/cm/cases', { ...params, start: Math.floor((total - 1) / limit) * limit });
    expectStatus(answer, 200);
  }
  return rememberRows(ctx.state, answer);
}

/** Search texts a user would type for cases of this list: a case number, order id, ARN, MID, card digits, merchant. */
export function searchTermOf(c: KnownCase): string {
  const options = [
    c.caseNo,
    c.caseNo.slice(0, 6),
    c.orderId ?? c.caseNo,
    c.arn ? c.arn.slice(0, 12) : c.caseNo,
    c.mid,
    c.lastFour ?? c.mid,
    String(c.id),
    c.merchantName.split(' ').slice(1, 3).join(' ') || c.merchantName,
  ];
  return pick(options);
}

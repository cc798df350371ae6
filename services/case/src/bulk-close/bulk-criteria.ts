/**
 * The rows a bulk job touches, from the job row itself (criteria plus the
 * submitting user's scope, frozen at submission): New cases for auto-accept,
 * open alerts for auto-refund. The preview counts with the same SQL the run
 * updates with, so the confirmation's number is what the run changes.
 */
export interface BulkJobRow {
  id: number;
  tenant_id: string;
  kind: 'auto_accept' | 'auto_refund';
  state: string;
  merchant_id: number | null;
  scope_merchant_ids: number[] | null;
  scope_mids_allowed: number[] | null;
  scope_mids_excluded: number[];
  user_id: number | null;
  username: string | null;
  amt_from: number;
  amt_to: number;
  currency_id: number;
  cycle_id: number | null;
  reason_code_id: number | null;
  source_id: number | null;
  card_type_id: number | null;
  mid_descriptor_id: number | null;
  not_worth_fighting: boolean;
  preview_num: number;
  records_num: number;
  job_id: string | null;
}

/** WHERE of the New cases an auto-accept job closes (alias c); `$1` is the job id. */
export const CASES_OF_JOB = `c.tenant_id = j.tenant_id and c.status_id = 1
  and c.dispute_amt between j.amt_from and j.amt_to and c.dispute_currency_id = j.currency_id
  and c.cycle_id = j.cycle_id and c.reason_code_id = j.reason_code_id
  and (j.scope_merchant_ids is null or c.merchant_id = any(j.scope_merchant_ids))
  and (j.scope_mids_allowed is null or c.mid_id = any(j.scope_mids_allowed))
  and c.mid_id <> all(j.scope_mids_excluded)
  and (not j.not_worth_fighting or exists (select 1 from cases.win_odds_scores w
    where w.case_id = c.id and w.tenant_id = c.tenant_id and w.expected_value < 0))`;

/** WHERE of the open alerts an auto-refund job refunds (alias a, descriptor ad). */
export const ALERTS_OF_JOB = `a.tenant_id = j.tenant_id and not a.completed
  and a.trans_amount between j.amt_from and j.amt_to and a.currency_id = j.currency_id
  and a.source_id = j.source_id and a.card_type_id = j.card_type_id and a.descriptor_id = j.mid_descriptor_id
  and (j.scope_merchant_ids is null or a.merchant_id = any(j.scope_merchant_ids))
  and (j.scope_mids_allowed is null or ad.mid_id = any(j.scope_mids_allowed))
  and (ad.mid_id is null or ad.mid_id <> all(j.scope_mids_excluded))`;

export function countSql(kind: BulkJobRow['kind']): string {
  return kind === 'auto_accept'
    ? `select count(*)::int as n from cases.bulk_jobs j join cases.cases c on ${CASES_OF_JOB} where j.id = $1`
    : `select count(*)::int as n from cases.bulk_jobs j join cases.alerts a on true
       join cases.alert_descriptors ad on ad.id = a.descriptor_id and ${ALERTS_OF_JOB} where j.id = $1`;
}

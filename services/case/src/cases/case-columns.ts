import { CASE_STATUS, STATUS_GROUP, type CaseDetail, type CaseRow } from '@portal/contracts';
import type { Reference } from '../reference/reference';
import { canRemedy } from '../remedy/eligibility';
import { WIN_ODDS_COLUMN } from '../win-odds/win-odds-column';

/** FROM clause of a case row: only the tenant tables; lookup labels come from the Reference maps. */
export const CASE_FROM = `
  from cases.cases c
  join cases.merchants m on m.id = c.merchant_id
  left join cases.merchants pm on pm.id = m.parent_id
  join cases.mids mi on mi.id = c.mid_id
  left join cases.descriptors d on d.id = c.descriptor_id
  left join cases.case_flags f on f.id = c.flag_id`;

export const CASE_COLUMNS = `
  c.id, c.case_no, c.order_id, c.cycle_id, mi.mid, c.mid_id, mi.alias as mid_alias, d.descriptor, c.card_type_id, c.cc_bin,
  c.cc_last_four, c.reason_code_id, c.is_fraud, c.date_post, c.date_due, c.date_trans, c.date_completed,
  to_char(c.date_created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as date_created, c.dispute_amt, c.dispute_currency_id,
  c.trans_amt, c.trans_currency_id, c.status_id, c.status_group_id, c.verdict_id, c.processor_id, c.processor_invoice_id,
  c.source_id, c.is_credit, c.is_guaranteed, c.arn, c.comments, c.merchant_id, m.business_name as merchant_name,
  coalesce(m.partner_company_id, pm.partner_company_id) as partner_company_id, c.flag_id,
  f.is_flagged as flag_is_flagged, f.comment as flag_comment, c.assigned_user_id, c.assigned_fname, c.assigned_lname,
  c.assigned_username, c.tenant_id,
  exists (select 1 from cases.remedy_submissions rs where rs.tenant_id = c.tenant_id and rs.case_id = c.id)
    as remedy_submitted,
  array(select json_build_object('id', i.id, 'date_created',
      to_char(i.date_created at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
    from cases.issuer_docs i where i.case_id = c.id
      and exists (select 1 from cases.merchant_features mf where mf.merchant_id = c.merchant_id and mf.feature_id = 1)
    order by i.date_created, i.id) as issuer_docs,
  ${WIN_ODDS_COLUMN}`;

/** A case row as selected by CASE_COLUMNS. */
export type CaseSqlRow = Omit<
  CaseDbRow,
  | 'cycle'
  | 'cc_type'
  | 'reason_code'
  | 'reason_category'
  | 'reason_code_message'
  | 'dispute_currency'
  | 'trans_currency'
  | 'status'
  | 'status_group'
  | 'verdict'
  | 'processor'
  | 'source'
> & { trans_currency_id: number | null; processor_id: number | null; source_id: number | null };

/** Adds the lookup labels to selected rows. */
export function withLabels(r: CaseSqlRow, ref: Reference): CaseDbRow {
  const rc = ref.reasonCodes.get(r.reason_code_id);
  return {
    ...r,
    cycle: ref.cycles.get(r.cycle_id) ?? '',
    cc_type: ref.cardTypes.get(r.card_type_id) ?? '',
    reason_code: rc?.code ?? '',
    reason_category: rc?.category ?? '',
    reason_code_message: rc?.description ?? '',
    dispute_currency: ref.currencies.get(r.dispute_currency_id) ?? '',
    trans_currency: r.trans_currency_id === null ? null : (ref.currencies.get(r.trans_currency_id) ?? null),
    status: ref.statuses.get(r.status_id) ?? '',
    status_group: ref.statusGroups.get(r.status_group_id) ?? '',
    verdict: ref.verdicts.get(r.verdict_id) ?? '',
    processor: r.processor_id === null ? null : (ref.processors.get(r.processor_id) ?? null),
    source: r.source_id === null ? null : (ref.sources.get(r.source_id) ?? null),
  };
}

interface CaseDbRow {
  id: number;
  case_no: string;
  order_id: string | null;
  cycle: string;
  cycle_id: number;
  mid: string;
  mid_id: number;
  mid_alias: string | null;
  descriptor: string | null;
  cc_type: string;
  card_type_id: number;
  cc_bin: string | null;
  cc_last_four: string | null;
  reason_code: string;
  reason_code_id: number;
  reason_category: string;
  reason_code_message: string;
  is_fraud: boolean;
  date_post: string;
  date_due: string;
  date_trans: string | null;
  date_completed: string | null;
  date_created: string;
  dispute_amt: number;
  dispute_currency: string;
  dispute_currency_id: number;
  trans_amt: number | null;
  trans_currency: string | null;
  status_id: number;
  status: string;
  status_group: string;
  status_group_id: number;
  verdict: string;
  verdict_id: number;
  processor: string | null;
  processor_invoice_id: string | null;
  is_credit: boolean;
  is_guaranteed: boolean;
  arn: string | null;
  comments: string | null;
  merchant_id: number;
  merchant_name: string;
  partner_company_id: string | null;
  flag_id: number | null;
  flag_is_flagged: boolean | null;
  flag_comment: string | null;
  assigned_user_id: number | null;
  assigned_fname: string | null;
  assigned_lname: string | null;
  assigned_username: string | null;
  /** Issuer documents (merchant feature 1 only). */
  issuer_docs: Array<{ id: number | string; date_created: string }>;
  source: string | null;
  tenant_id: string;
  /** A CE 3.0 remedy exists for the case (cases.remedy_submissions). */
  remedy_submitted: boolean;
  /** The open case's score (win-odds/win-odds-column.ts), null otherwise. */
  win_odds: CaseRow['win_odds'];
}

const DOC_STATUSES: readonly number[] = [
  CASE_STATUS.DocUploaded,
  CASE_STATUS.DocCompiling,
  CASE_STATUS.DocCompiled,
  CASE_STATUS.TransportReady,
  CASE_STATUS.TransportProcessing,
  CASE_STATUS.TransportCompleted,
];
const ACTIONABLE_STATUSES: readonly number[] = [CASE_STATUS.New, CASE_STATUS.Working];

export function isOpenGroup(statusGroupId: number): boolean {
  return statusGroupId === STATUS_GROUP.New || statusGroupId === STATUS_GROUP.InProgress;
}

/** What the grid may do with a case, from its status (spec 2 §3, §4). */
function caseProperties(
  r: Pick<
    CaseDbRow,
    | 'status_id'
    | 'status_group_id'
    | 'card_type_id'
    | 'reason_code'
    | 'cycle_id'
    | 'tenant_id'
    | 'remedy_submitted'
  >,
): CaseRow['properties'] {
  const isDoc = DOC_STATUSES.includes(r.status_id);
  const actionable = ACTIONABLE_STATUSES.includes(r.status_id);
  return {
    is_doc_available: isDoc,
    is_assign_user_enabled: isOpenGroup(r.status_group_id),
    is_upload_representment_enabled: actionable,
    is_revert_dnr_enabled: r.status_id === CASE_STATUS.DoNotRepresent,
    is_dnr_enabled: actionable,
    // Visa card-absent fraud on the first cycle, not yet defended, tenant HAS_REMEDY (remedy/eligibility.ts).
    can_remedy: canRemedy(r),
    upload_representment_tooltip:
      r.status_id === CASE_STATUS.DocCompiling
        ? 'Doc(s) compiling...'
        : isDoc || actionable
          ? null
          : 'Document Unavailable',
  };
}

export function toCaseRow(r: CaseDbRow): CaseRow {
  return {
    id: Number(r.id),
    case_no: r.case_no,
    order_id: r.order_id,
    cycle: r.cycle,
    cycle_id: r.cycle_id,
    mid: r.mid,
    mid_id: Number(r.mid_id),
    mid_alias: r.mid_alias,
    descriptor: r.descriptor,
    cc_type: r.cc_type,
    card_type_id: r.card_type_id,
    cc_bin: r.cc_bin,
    cc_no: r.cc_last_four ? `${r.cc_bin ?? ''}******${r.cc_last_four}` : null,
    cc_last_four: r.cc_last_four,
    reason_code: r.reason_code,
    reason_code_id: r.reason_code_id,
    reason_category: r.reason_category,
    reason_code_message: r.reason_code_message,
    is_fraud: r.is_fraud,
    date_post: r.date_post,
    date_due: r.date_due,
    date_trans: r.date_trans,
    date_completed: r.date_completed,
    date_created: r.date_created,
    dispute_amt: Number(r.dispute_amt),
    dispute_currency: r.dispute_currency,
    dispute_currency_id: r.dispute_currency_id,
    trans_amt: r.trans_amt === null ? null : Number(r.trans_amt),
    trans_currency: r.trans_currency,
    status_id: r.status_id,
    status: r.status,
    status_group: r.status_group,
    status_group_id: r.status_group_id,
    verdict: r.verdict,
    verdict_id: r.verdict_id,
    processor: r.processor,
    processor_invoice_id: r.processor_invoice_id,
    is_credit: r.is_credit,
    is_guaranteed: r.is_guaranteed,
    arn: r.arn,
    comments: r.comments,
    merchant_id: Number(r.merchant_id),
    merchant_name: r.merchant_name,
    partner_company_id: r.partner_company_id,
    flag:
      r.flag_id === null
        ? null
        : { id: Number(r.flag_id), is_flagged: r.flag_is_flagged ?? false, comment: r.flag_comment },
    assigned_user:
      r.assigned_user_id === null
        ? null
        : {
            id: Number(r.assigned_user_id),
            fname: r.assigned_fname ?? '',
            lname: r.assigned_lname ?? '',
            username: r.assigned_username ?? '',
          },
    properties: caseProperties(r),
    issuer_docs: (r.issuer_docs ?? []).map((d) => ({ id: Number(d.id), date_created: d.date_created })),
    win_odds: r.win_odds ?? null,
  };
}

export function toCaseDetail(r: CaseDbRow): CaseDetail {
  return {
    ...toCaseRow(r),
    merchant: { id: Number(r.merchant_id), business_name: r.merchant_name },
    document: null,
    source: r.source,
  };
}

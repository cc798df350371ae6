import {
  MERCHANT_FEATURE,
  MERCHANT_ROLES,
  PARTNER_ROLES,
  PROVIDER_ROLES,
  type CaseRow,
} from '@portal/contracts';
import type { CaseView } from './case-views';
import { formatCaseDate, formatCaseMoney } from '../../../lib/format-case';

/** How a column renders; the grid maps kinds to cell renderers. */
export type ColumnKind =
  | 'text'
  | 'money'
  | 'date'
  | 'flag'
  | 'document'
  | 'issuer-docs'
  | 'win-odds'
  | 'assigned-text'
  | 'assigned-icon'
  | 'assign-control'
  | 'actions';

export interface CaseColumn {
  /** CaseRow field (or a pseudo key for flag/document/actions). */
  key: string;
  label: string;
  kind: ColumnKind;
  width: number;
  pinned?: 'right';
  /** Assigned and Actions: pinned right, locked, no filter or menu. */
  locked?: boolean;
  /** Hidden until the user shows it (extra columns). */
  hidden?: boolean;
  /** Shown only with this permission (spec 2 §2.1, §6): a merchant feature or the partner company id page role. */
  needs?: ColumnPermission;
}

/** Merchant feature ids (outcome verdicts, platform, ...) or the page role for partner company ids. */
export type ColumnPermission = number | 'partner-company-id';

/** What the signed-in user may see, for the permission-gated columns. */
export interface ColumnAccess {
  /** Feature ids of the merchant being worked. */
  features: ReadonlySet<number>;
  /** Holds the page role cm-view-partner-admin-id. */
  partnerCompanyId: boolean;
}

/** Not sortable: Flag, Document and Actions (spec 2 §2.1); the assign control too. */
export const UNSORTABLE: ReadonlySet<ColumnKind> = new Set([
  'flag',
  'document',
  'issuer-docs',
  'win-odds',
  'actions',
  'assign-control',
]);
/** Never exported: select and action columns. */
const NOT_EXPORTED: ReadonlySet<ColumnKind> = new Set([
  'document',
  'issuer-docs',
  'win-odds',
  'actions',
  'assign-control',
]);

const c = (key: string, label: string, width = 120, kind: ColumnKind = 'text'): CaseColumn => ({
  key,
  label,
  kind,
  width,
});
const money = (key: string, label: string) => c(key, label, 120, 'money');
const date = (key: string, label: string) => c(key, label, 115, 'date');
const ACTIONS: CaseColumn = { ...c('actions', 'Actions', 135, 'actions'), pinned: 'right', locked: true };
const FLAG = c('flag', 'Flag', 60, 'flag');
const verdict = (label: string): CaseColumn => ({
  ...c('verdict', label, 140),
  needs: MERCHANT_FEATURE.verdicts,
});
const DOCUMENT = c('document', 'Document', 115, 'document');
/** Win probability and recommendation of an open case (issue 33): 'Win 62% · Fight'. */
const WIN_ODDS = c('win_odds', 'Win Odds', 130, 'win-odds');

const isIn = (group: readonly string[], role: string) => group.includes(role);

/** The layout key of a user: the first of their roles with a layout; default partner_admin. */
function layoutRole(roles: readonly string[]): string {
  const order = [
    'cb911_manager',
    'cb911_agent',
    'cb911_admin',
    'partner_admin',
    'partner_user',
    'merchant_admin',
    'merchant_user',
  ];
  return order.find((r) => roles.includes(r)) ?? 'partner_admin';
}

function chargebacks(role: string): CaseColumn[] {
  const showMerchant = isIn(PROVIDER_ROLES, role) || isIn(PARTNER_ROLES, role);
  return [
    ...(showMerchant ? [c('merchant_name', 'Merchant', 170)] : []),
    ACTIONS,
    date('date_due', 'Due Date'),
    WIN_ODDS,
    verdict('Outcome'),
    c('id', 'CB ID', 115),
    c('case_no', 'Case Number', 175),
    c('order_id', 'Order ID', 130),
    c('cycle', 'Cycle', 150),
    c('mid', 'MID', 140),
    c('mid_alias', 'Mid Alias', 130),
    c('cc_type', 'Card Type', 120),
    c('reason_code', 'Reason Code', 110),
    c('reason_category', 'Reason Category', 160),
    date('date_post', 'Post Date'),
    money('dispute_amt', 'Dispute Amt'),
    c('dispute_currency', 'Dispute Currency', 90),
    date('date_trans', 'Trans. Date'),
    money('trans_amt', 'Trans. Amt'),
    c('trans_currency', 'Trans. Currency', 90),
    c('cc_no', 'Card Number', 170),
    c('status_group', 'Status', 120),
    c('arn', 'ARN', 200),
    date('date_completed', 'Completed Date'),
    // Extra columns available on demand.
    { ...FLAG, hidden: true },
    { ...c('assigned_user', 'Assigned', 150, 'assigned-text'), hidden: true },
    { ...c('partner_company_id', 'Partner Company ID', 150), hidden: true, needs: 'partner-company-id' },
    {
      ...c('issuer_docs', 'Issuer Docs', 120, 'issuer-docs'),
      hidden: true,
      needs: MERCHANT_FEATURE.issuerDocs,
    },
    { ...c('processor', 'Processor', 130), hidden: true, needs: MERCHANT_FEATURE.platform },
    { ...DOCUMENT, pinned: 'right' },
  ];
}

function caseManagement(role: string): CaseColumn[] {
  return [
    FLAG,
    verdict('Status'),
    DOCUMENT,
    date('date_due', 'Due Date'),
    WIN_ODDS,
    c('id', 'CB ID', 115),
    c('case_no', 'Case Number', 175),
    c('order_id', 'Order ID', 130),
    c('mid', 'MID', 140),
    c('cc_type', 'Card Type', 120),
    c('reason_code', 'Reason Code', 110),
    c('reason_category', 'Reason Category', 160),
    date('date_post', 'Post Date'),
    money('dispute_amt', 'Dispute Amt'),
    c('dispute_currency', 'Dispute Currency', 90),
    date('date_trans', 'Trans. Date'),
    money('trans_amt', 'Trans. Amt'),
    c('trans_currency', 'Trans. Currency', 90),
    c('cc_no', 'Card Number', 170),
    c('arn', 'ARN', 200),
    date('date_completed', 'Completed Date'),
    {
      ...c('assigned_user', 'Assigned', isIn(MERCHANT_ROLES, role) ? 150 : 90),
      kind: isIn(MERCHANT_ROLES, role) ? 'assigned-text' : 'assigned-icon',
      pinned: 'right',
      locked: true,
    },
    ACTIONS,
  ];
}

const QC_REVIEW: CaseColumn[] = [
  FLAG,
  c('id', 'CB ID', 115),
  c('case_no', 'Case Number', 175),
  c('mid', 'MID', 140),
  date('date_post', 'Post Date'),
  date('date_due', 'Due Date'),
  c('cc_type', 'Card Type', 120),
  money('dispute_amt', 'Dispute Amt'),
  c('dispute_currency', 'Dispute Currency', 90),
  c('reason_code', 'Reason Code', 110),
  c('reason_category', 'Reason Category', 160),
  ACTIONS,
];

const ADMIN_REVIEW: CaseColumn[] = [
  c('assigned_user', 'Assigned', 190, 'assign-control'),
  c('merchant_name', 'Merchant', 170),
  c('status_group', 'Status', 120),
  date('date_due', 'Due Date'),
  c('id', 'CB ID', 115),
  c('case_no', 'Case No', 175),
  c('mid', 'MID', 140),
  verdict('Verdict'),
  c('cycle', 'Cycle', 150),
  date('date_post', 'Post Date'),
  c('cc_type', 'Card Type', 120),
  money('dispute_amt', 'Dispute Amount'),
  c('dispute_currency', 'Dispute Currency', 90),
  date('date_trans', 'Transaction Date'),
  money('trans_amt', 'Transaction Amount'),
  c('trans_currency', 'Transaction Currency', 90),
  c('cc_bin', 'CC BIN', 90),
  c('cc_no', 'CC Number', 170),
  c('arn', 'ARN', 200),
  c('reason_code', 'Reason Code', 110),
  c('reason_category', 'Reason Category', 160),
  // Actions menu plus the View link of the case.
  { ...ACTIONS, width: 165 },
];

function layout(view: CaseView, role: string): CaseColumn[] {
  switch (view) {
    case 'chargebacks':
      return chargebacks(role);
    case 'case-management':
      return caseManagement(role);
    case 'qc-review':
      return QC_REVIEW;
    case 'admin-review':
      return ADMIN_REVIEW;
  }
}

const permitted = (needs: ColumnPermission | undefined, access: ColumnAccess) =>
  needs === undefined ||
  (needs === 'partner-company-id' ? access.partnerCompanyId : access.features.has(needs));

/** The column layout of a view for a user's roles, less the columns they lack the permission for (spec 2 §2.1, §6). */
export function caseColumns(view: CaseView, roles: readonly string[], access: ColumnAccess): CaseColumn[] {
  return layout(view, layoutRole(roles)).filter((col) => permitted(col.needs, access));
}

/** The text a cell shows (also used by copy, CSV and print). */
export function cellText(row: CaseRow, col: CaseColumn): string {
  if (col.kind === 'flag') return row.flag?.is_flagged ? 'Yes' : 'No';
  if (col.kind === 'document') return row.properties.is_doc_available ? 'Available' : '';
  if (col.kind === 'win-odds') return winOddsText(row.win_odds);
  if (col.kind.startsWith('assign'))
    return row.assigned_user ? `${row.assigned_user.fname} ${row.assigned_user.lname}`.trim() : '';
  const value = (row as unknown as Record<string, unknown>)[col.key];
  if (col.kind === 'money') return formatCaseMoney(value as number | null);
  if (col.kind === 'date') return formatCaseDate(value as string | null);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return value == null ? '' : String(value);
}

/** Export accessor of a column: the server knows flag and assigned_user by those names. */
export function exportAccessor(col: CaseColumn): string | null {
  if (NOT_EXPORTED.has(col.kind)) return null;
  return col.key;
}

/** 'Win 62% · Fight' (issue 33); empty for a closed or not yet scored case. */
export function winOddsText(score: CaseRow['win_odds']): string {
  if (!score) return '';
  return `Win ${Math.round(score.probability * 100)}% · ${score.recommendation}`;
}

import {
  CASE_EXPORT_COLUMNS,
  MERCHANT_FEATURE,
  MERCHANT_FEATURE_NAMES,
  type CaseListQuery,
  type CaseRow,
} from '@portal/contracts';
import { badRequest, forbidden } from '@portal/core';

export interface ExportColumn {
  accessor: string;
  label: string;
}

/** Accessors an export may ask for beyond the 24 default columns. */
const EXTRA_ACCESSORS: Record<string, string> = {
  status: 'Case Status',
  descriptor: 'Descriptor',
  is_fraud: 'Fraud',
  is_credit: 'Credit',
  is_guaranteed: 'Guaranteed',
  processor: 'Processor',
  processor_invoice_id: 'Processor Invoice',
  comments: 'Comments',
  cc_last_four: 'Last Four',
  date_created: 'Date Created',
  flag: 'Flagged',
  reason_code_id: 'Reason Code Id',
  status_group_id: 'Status Group Id',
  cycle_id: 'Cycle Id',
  merchant_id: 'Merchant Id',
  partner_company_id: 'Partner Company ID',
};

/** Columns that need a merchant feature (spec 2 §2.1, §6): outcome verdicts, platform. */
const FEATURE_OF: Record<string, number> = {
  verdict: MERCHANT_FEATURE.verdicts,
  processor: MERCHANT_FEATURE.platform,
  processor_invoice_id: MERCHANT_FEATURE.platform,
};
const DEFAULT_LABELS = new Map<string, string>([
  ...CASE_EXPORT_COLUMNS.map((c) => [c.accessor, c.label] as const),
  ...Object.entries(EXTRA_ACCESSORS),
]);

const split = (values: readonly string[] | undefined) =>
  (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * The columns of an export: headers[] picks and orders them (default: the 24
 * chargeback columns less those the merchant's features do not allow),
 * header_labels[] renames. Asking for a column without its feature is refused.
 */
export function exportColumns(q: CaseListQuery, features: ReadonlySet<number>): ExportColumn[] {
  const allowed = (a: string) => FEATURE_OF[a] === undefined || features.has(FEATURE_OF[a]);
  const accessors = split(q.headers ?? q['headers[]']);
  for (const a of accessors) {
    if (!DEFAULT_LABELS.has(a)) throw badRequest(`headers: unknown column '${a}'.`);
    if (!allowed(a))
      throw forbidden(
        `headers: column '${a}' needs the merchant feature ${MERCHANT_FEATURE_NAMES[FEATURE_OF[a]!]}.`,
      );
  }
  const labels = new Map<string, string>();
  for (const entry of q.header_labels ?? q['header_labels[]'] ?? []) {
    const at = entry.indexOf(':');
    if (at <= 0) throw badRequest(`header_labels: '${entry}' must be 'accessor:label'.`);
    labels.set(entry.slice(0, at).trim(), entry.slice(at + 1).trim());
  }
  const chosen = accessors.length ? accessors : CASE_EXPORT_COLUMNS.map((c) => c.accessor).filter(allowed);
  return chosen.map((accessor) => ({
    accessor,
    label: labels.get(accessor) ?? DEFAULT_LABELS.get(accessor)!,
  }));
}

export const MONEY_COLUMNS = new Set(['dispute_amt', 'trans_amt']);

/** A cell value: money with two decimals, Yes/No for flags, the assignee's name. */
export function cellValue(row: CaseRow, accessor: string): string | number | null {
  if (accessor === 'assigned_user')
    return row.assigned_user ? `${row.assigned_user.fname} ${row.assigned_user.lname}`.trim() : null;
  if (accessor === 'flag') return row.flag?.is_flagged ? 'Yes' : 'No';
  const value = (row as unknown as Record<string, unknown>)[accessor];
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (MONEY_COLUMNS.has(accessor) && typeof value === 'number') return Math.round(value * 100) / 100;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return String(value);
}

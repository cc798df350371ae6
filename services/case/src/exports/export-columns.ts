import { CASE_EXPORT_COLUMNS, type CaseListQuery, type CaseRow } from '@portal/contracts';
import { badRequest } from '@portal/core';

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

/** The columns of an export: headers[] picks and orders them (default: the 24 chargeback columns), header_labels[] renames. */
export function exportColumns(q: CaseListQuery): ExportColumn[] {
  const accessors = split(q.headers ?? q['headers[]']);
  for (const a of accessors) if (!DEFAULT_LABELS.has(a)) throw badRequest(`headers: unknown column '${a}'.`);
  const labels = new Map<string, string>();
  for (const entry of q.header_labels ?? q['header_labels[]'] ?? []) {
    const at = entry.indexOf(':');
    if (at <= 0) throw badRequest(`header_labels: '${entry}' must be 'accessor:label'.`);
    labels.set(entry.slice(0, at).trim(), entry.slice(at + 1).trim());
  }
  const chosen = accessors.length ? accessors : CASE_EXPORT_COLUMNS.map((c) => c.accessor);
  return chosen.map((accessor) => ({
    accessor,
    label: labels.get(accessor) ?? DEFAULT_LABELS.get(accessor)!,
  }));
}

const MONEY = new Set(['dispute_amt', 'trans_amt']);

/** A cell value: money with two decimals, Yes/No for flags, the assignee's name. */
export function cellValue(row: CaseRow, accessor: string): string | number | null {
  if (accessor === 'assigned_user')
    return row.assigned_user ? `${row.assigned_user.fname} ${row.assigned_user.lname}`.trim() : null;
  if (accessor === 'flag') return row.flag?.is_flagged ? 'Yes' : 'No';
  const value = (row as unknown as Record<string, unknown>)[accessor];
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (MONEY.has(accessor) && typeof value === 'number') return Math.round(value * 100) / 100;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return String(value);
}

export function csvField(value: string | number | null, accessor: string): string {
  if (value === null) return '';
  const text = MONEY.has(accessor) && typeof value === 'number' ? value.toFixed(2) : String(value);
  return /[",\r\n]/.test(text) || /^[=+\-@]/.test(text)
    ? `"${(/^[=+\-@]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"`
    : text;
}

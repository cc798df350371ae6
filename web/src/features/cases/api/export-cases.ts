import { api, saveBlob, type Params } from '../../../lib/api-client';
import type { CaseQuery } from './get-cases';

export interface ExportInput {
  format: 'csv' | 'xlsx';
  exportType: 'page' | 'all';
  query: CaseQuery;
  total: number;
  columns: { accessor: string; label: string }[];
}

/**
 * GET /cm/cases.csv | /cm/cases.xlsx with the list's filters, export_type,
 * export_total, headers[] and header_labels[] ('accessor:label'). Returns
 * false when the server answered with something other than a file: the
 * export is then e-mailed (spec 2 §4 Export).
 */
export async function exportCases(input: ExportInput): Promise<boolean> {
  const { blob, filename } = await api.download(
    `cm/cases.${input.format}`,
    { ...(input.query as Params), export_type: input.exportType, export_total: input.total },
    {
      'headers[]': input.columns.map((c) => c.accessor),
      'header_labels[]': input.columns.map((c) => `${c.accessor}:${c.label}`),
    },
  );
  if (!blob) return false;
  saveBlob(blob, filename);
  return true;
}

import { useState } from 'react';
import { toaster } from '../../../components/toaster';
import { exportCases } from '../api/export-cases';
import type { CaseQuery } from '../api/get-cases';
import type { CaseGridHandle } from '../components/case-grid';
import { exportAccessor, type CaseColumn } from './case-columns';
import { copiedRows, MSG, serverOr } from '../../../lib/case-messages';
import { downloadRowsPdf } from './pdf-export';
import { printRows, rowsTsv } from './print-rows';

export interface ExportNotice {
  status: 'info' | 'error';
  title?: string;
  text: string;
}

/**
 * The Tools menu of a case list (spec 2 §2.3): Copy, CSV, PDF and Print take
 * the selected rows, else the page on screen; Excel and Export All ask the
 * server with the list's query and sort. With rows but no exportable column
 * left (all hidden), the table has nothing to show: 'No table data provided.'
 */
export function useCaseTools({
  grid,
  exportable,
  title,
  fileBase,
  query,
  pageSize,
  total,
}: {
  grid: { current: CaseGridHandle | null };
  exportable: CaseColumn[];
  title: string;
  fileBase: string;
  query: CaseQuery;
  pageSize: number;
  total: number;
}) {
  const [notice, setNotice] = useState<ExportNotice | null>(null);
  const pageOrSelected = () => {
    const sel = grid.current?.selectedRows() ?? [];
    return sel.length ? sel : (grid.current?.pageRows() ?? []);
  };
  /** Rows, but every exportable column hidden: the table would be empty (spec 2 §8 'Grid/tools'). */
  const noColumns = () => {
    if (exportable.length) return false;
    toaster.create({ type: 'error', description: MSG.noTableData });
    return true;
  };
  const copy = async () => {
    const rows = pageOrSelected();
    if (!rows.length) return toaster.create({ type: 'error', description: MSG.noCopy });
    if (noColumns()) return;
    await navigator.clipboard.writeText(rowsTsv(rows, exportable));
    toaster.create({ type: 'success', description: copiedRows(rows.length) });
  };
  const csv = () => {
    if (!grid.current?.pageRows().length) return toaster.create({ type: 'error', description: MSG.noCopy });
    if (noColumns()) return;
    grid.current.exportPageCsv(exportable, `${fileBase}.csv`);
  };
  const print = () => {
    const rows = pageOrSelected();
    if (!rows.length) return toaster.create({ type: 'error', description: MSG.noPrint });
    if (noColumns()) return;
    if (!printRows(title, rows, exportable)) toaster.create({ type: 'error', description: MSG.printBlocked });
  };
  const pdf = async () => {
    const rows = pageOrSelected();
    if (!rows.length) return toaster.create({ type: 'error', description: MSG.noPdf });
    if (noColumns()) return;
    try {
      await downloadRowsPdf(title, rows, exportable, `${fileBase}.pdf`);
    } catch {
      toaster.create({ type: 'error', description: MSG.generic });
    }
  };
  const serverExport = async (format: 'csv' | 'xlsx', exportType: 'page' | 'all') => {
    const sort = grid.current?.currentSort();
    const pageQuery: CaseQuery =
      exportType === 'page' ? { ...query, start: grid.current?.pageStart() ?? 0, limit: pageSize } : query;
    try {
      const saved = await exportCases({
        format,
        exportType,
        total,
        query: { ...pageQuery, sort_by: sort?.colId, sort_order: sort?.sort },
        columns: exportable.map((c) => ({ accessor: exportAccessor(c)!, label: c.label })),
      });
      if (!saved) setNotice({ status: 'info', text: MSG.exportStarted });
    } catch (e) {
      setNotice({ status: 'error', title: 'Error.', text: serverOr(e, MSG.exportUnknown) });
    }
  };
  return { copy, csv, print, pdf, serverExport, notice, clearNotice: () => setNotice(null) };
}

export type CaseTools = ReturnType<typeof useCaseTools>;

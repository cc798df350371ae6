import type { CaseListQuery, CaseRow, InternalContext } from '@portal/contracts';
import type { Db } from '@portal/core';
import type { ExportFile } from '@portal/exports';
import { exportQuery } from '../cases/case-repository';
import { toCaseRow, withLabels, type CaseSqlRow } from '../cases/case-columns';
import { merchantFeatures } from '../merchants/merchant-repository';
import { reference } from '../reference/reference';
import { cellValue, exportColumns, MONEY_COLUMNS, type ExportColumn } from './export-columns';
import { csvExport, exportFileName, XLSX_TYPE, xlsxExport, type TableColumn } from './table-export';

/** The chargebacks list export (spec 2 §2 'Exports'), streamed by the route or written by the mailed-export job. */

const BATCH = 2000;

/** Every matching row in batches: a cursor on Postgres; a single page for export_type=page. */
async function* caseBatches(
  db: Db,
  sql: string,
  params: unknown[],
  pageOnly: boolean,
): AsyncIterable<CaseRow[]> {
  const ref = await reference(db);
  if (pageOnly) {
    const { rows } = await db.query<CaseSqlRow>(sql, params);
    yield rows.map((r) => toCaseRow(withLabels(r, ref)));
    return;
  }
  for await (const batch of db.stream<CaseSqlRow>(sql, params, BATCH))
    yield batch.map((r) => toCaseRow(withLabels(r, ref)));
}

/** The chosen columns as grid-export columns: money keeps two decimals in the CSV. */
const tableColumns = (columns: ExportColumn[]): TableColumn<CaseRow>[] =>
  columns.map(({ accessor, label }) => ({
    label,
    cell: (row) => cellValue(row, accessor),
    ...(MONEY_COLUMNS.has(accessor) && { csvNumber: (v: number) => v.toFixed(2) }),
  }));

/**
 * The case list export of `ctx` (the caller, or the scope a mailed export
 * captured): its query (scope checked, 4xx for a bad filter) and the file.
 * Columns follow the merchant being worked (client_id, else the user's own).
 */
export async function caseExport(
  db: Db,
  ctx: InternalContext,
  q: CaseListQuery,
  format: 'csv' | 'xlsx',
  onError: (error: unknown) => void,
): Promise<{ sql: string; params: unknown[]; file: ExportFile }> {
  const { sql, params } = await exportQuery(db, ctx, q);
  const columns = exportColumns(q, await merchantFeatures(db, ctx.tenant, q.client_id ?? ctx.merchant_id));
  const pageOnly = q.export_type === 'page';
  const write = () =>
    format === 'csv'
      ? csvExport(tableColumns(columns), caseBatches(db, sql, params, pageOnly))
      : xlsxExport('Chargebacks', tableColumns(columns), caseBatches(db, sql, params, pageOnly), onError);
  return {
    sql,
    params,
    file: {
      filename: exportFileName('chargebacks', format),
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE,
      write,
    },
  };
}

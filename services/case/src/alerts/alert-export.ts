import {
  ALERT_EXPORT_COLUMNS,
  type AlertListQuery,
  type AlertRow,
  type InternalContext,
} from '@portal/contracts';
import type { Db } from '@portal/core';
import type { ExportFile } from '@portal/exports';
import { csvExport, exportFileName, XLSX_TYPE, xlsxExport, type TableColumn } from '../exports/table-export';
import { alertExportQuery, toAlertRow } from './alert-repository';

const BATCH = 2000;

async function* alertBatches(
  db: Db,
  sql: string,
  params: unknown[],
  pageOnly: boolean,
): AsyncIterable<AlertRow[]> {
  if (pageOnly) {
    const { rows } = await db.query<Parameters<typeof toAlertRow>[0]>(sql, params);
    yield rows.map(toAlertRow);
    return;
  }
  for await (const batch of db.stream<Parameters<typeof toAlertRow>[0]>(sql, params, BATCH))
    yield batch.map(toAlertRow);
}

/** Amounts as numbers with two decimals, booleans as Yes/No. */
const COLUMNS: TableColumn<AlertRow>[] = ALERT_EXPORT_COLUMNS.map(({ accessor, label }) => ({
  label,
  cell: (row) => {
    const value = row[accessor];
    if (value === null || value === undefined) return null;
    if (typeof value === 'number') return accessor === 'trans_amount' ? Math.round(value * 100) / 100 : value;
    return typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value);
  },
  ...(accessor === 'trans_amount' ? { csvNumber: (v: number) => v.toFixed(2) } : {}),
}));

const alertsCsv = (db: Db, sql: string, params: unknown[], pageOnly: boolean) =>
  csvExport(COLUMNS, alertBatches(db, sql, params, pageOnly));

const alertsXlsx = (
  db: Db,
  sql: string,
  params: unknown[],
  pageOnly: boolean,
  onError: (error: unknown) => void,
) => xlsxExport('Alerts', COLUMNS, alertBatches(db, sql, params, pageOnly), onError);

const alertExportName = (ext: 'csv' | 'xlsx') => exportFileName('alerts', ext);

/**
 * The alerts grid export of `ctx` (the caller, or the scope a mailed export
 * captured): its query, scope checked, and the file.
 */
export async function alertExport(
  db: Db,
  ctx: InternalContext,
  q: AlertListQuery,
  format: 'csv' | 'xlsx',
  onError: (error: unknown) => void,
): Promise<{ sql: string; params: unknown[]; file: ExportFile }> {
  const { sql, params } = await alertExportQuery(db, ctx, q);
  const pageOnly = q.export_type === 'page';
  return {
    sql,
    params,
    file: {
      filename: alertExportName(format),
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE,
      write: () =>
        format === 'csv'
          ? alertsCsv(db, sql, params, pageOnly)
          : alertsXlsx(db, sql, params, pageOnly, onError),
    },
  };
}

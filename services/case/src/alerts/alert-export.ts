import { ALERT_EXPORT_COLUMNS, type AlertRow } from '@portal/contracts';
import type { Db } from '@portal/core';
import { csvExport, exportFileName, xlsxExport, type TableColumn } from '../exports/table-export';
import { toAlertRow } from './alert-repository';

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

export const alertsCsv = (db: Db, sql: string, params: unknown[], pageOnly: boolean) =>
  csvExport(COLUMNS, alertBatches(db, sql, params, pageOnly));

export const alertsXlsx = (
  db: Db,
  sql: string,
  params: unknown[],
  pageOnly: boolean,
  onError: (error: unknown) => void,
) => xlsxExport('Alerts', COLUMNS, alertBatches(db, sql, params, pageOnly), onError);

export const alertExportName = (ext: 'csv' | 'xlsx') => exportFileName('alerts', ext);

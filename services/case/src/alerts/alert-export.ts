import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ALERT_EXPORT_COLUMNS, type AlertRow } from '@portal/contracts';
import type { Db } from '@portal/core';
import { csvField } from '../exports/export-columns';
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

/**
 * A cell: amounts as numbers with two decimals; text that a spreadsheet would
 * read as a formula (= + - @, also after a tab or CR) gets a leading quote.
 */
export function alertCell(row: AlertRow, accessor: keyof AlertRow): string | number | null {
  const value = row[accessor];
  if (value === null || value === undefined) return null;
  if (accessor === 'trans_amount' && typeof value === 'number') return Math.round(value * 100) / 100;
  if (typeof value === 'number') return value;
  const text = typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const stamp = () => new Date().toISOString().slice(0, 10);

export function alertsCsv(db: Db, sql: string, params: unknown[], pageOnly: boolean): Readable {
  async function* lines() {
    yield `\uFEFF${ALERT_EXPORT_COLUMNS.map((c) => csvField(c.label, '')).join(',')}\r\n`;
    for await (const rows of alertBatches(db, sql, params, pageOnly)) {
      yield rows
        .map((row) => {
          const cells = ALERT_EXPORT_COLUMNS.map((c) => {
            const v = alertCell(row, c.accessor);
            return csvField(
              typeof v === 'number' && c.accessor === 'trans_amount' ? v.toFixed(2) : v,
              c.accessor,
            );
          });
          return `${cells.join(',')}\r\n`;
        })
        .join('');
    }
  }
  return Readable.from(lines());
}

/** Streams the workbook; errors after the headers were sent destroy the stream (the client sees a cut download). */
export function alertsXlsx(
  db: Db,
  sql: string,
  params: unknown[],
  pageOnly: boolean,
  onError: (error: unknown) => void,
): PassThrough {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('Alerts');
  sheet.columns = ALERT_EXPORT_COLUMNS.map((c) => ({
    header: c.label,
    key: c.accessor,
    width: Math.max(12, c.label.length + 2),
  }));
  const fill = async () => {
    for await (const rows of alertBatches(db, sql, params, pageOnly)) {
      for (const row of rows)
        sheet.addRow(ALERT_EXPORT_COLUMNS.map((c) => alertCell(row, c.accessor))).commit();
      if (out.writableNeedDrain) await once(out, 'drain');
    }
    sheet.commit();
    await workbook.commit();
  };
  fill().catch((error: unknown) => {
    onError(error);
    out.destroy(error instanceof Error ? error : new Error('export failed'));
  });
  return out;
}

export const alertExportName = (ext: 'csv' | 'xlsx') => `alerts-${stamp()}.${ext}`;

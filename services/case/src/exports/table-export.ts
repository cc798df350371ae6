import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';

/** One column of a grid export: its header and the cell of a row (numbers stay numbers in Excel). */
export interface TableColumn<R> {
  label: string;
  cell: (row: R) => string | number | null;
  /** How a number is written in the CSV (e.g. amounts with two decimals). */
  csvNumber?: (value: number) => string;
}

/** Text a spreadsheet would run as a formula (= + - @, also after a tab or CR) gets a leading quote. */
const spreadsheetText = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

function csvText(value: string | number | null, csvNumber?: (value: number) => string): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? (csvNumber?.(value) ?? String(value)) : spreadsheetText(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const cellOf = <R>(c: TableColumn<R>, row: R) => {
  const v = c.cell(row);
  return typeof v === 'string' ? spreadsheetText(v) : v;
};

/** A CSV (UTF-8 with BOM for Excel, CRLF) streamed batch by batch. */
export function csvExport<R>(columns: readonly TableColumn<R>[], batches: AsyncIterable<R[]>): Readable {
  async function* lines() {
    yield `\uFEFF${columns.map((c) => csvText(c.label)).join(',')}\r\n`;
    for await (const rows of batches)
      yield rows
        .map((row) => `${columns.map((c) => csvText(c.cell(row), c.csvNumber)).join(',')}\r\n`)
        .join('');
  }
  return Readable.from(lines());
}

/** A streamed workbook; an error after the headers were sent destroys the stream (the client sees a cut download). */
export function xlsxExport<R>(
  sheetName: string,
  columns: readonly TableColumn<R>[],
  batches: AsyncIterable<R[]>,
  onError: (error: unknown) => void,
): PassThrough {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((c, i) => ({
    header: c.label,
    key: String(i),
    width: Math.max(12, c.label.length + 2),
  }));
  const fill = async () => {
    for await (const rows of batches) {
      for (const row of rows) sheet.addRow(columns.map((c) => cellOf(c, row))).commit();
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

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const exportFileName = (name: string, ext: 'csv' | 'xlsx') =>
  `${name}-${new Date().toISOString().slice(0, 10)}.${ext}`;

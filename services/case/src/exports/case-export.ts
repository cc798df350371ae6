import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { CaseListQuery, CaseRow, InternalContext } from '@portal/contracts';
import type { Db } from '@portal/core';
import type { ExportFile } from '@portal/exports';
import { exportQuery } from '../cases/case-repository';
import { toCaseRow, withLabels, type CaseSqlRow } from '../cases/case-columns';
import { merchantFeatures } from '../merchants/merchant-repository';
import { reference } from '../reference/reference';
import { cellValue, csvField, exportColumns, type ExportColumn } from './export-columns';
import { XLSX_TYPE } from './table-export';

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

const stamp = () => new Date().toISOString().slice(0, 10);

function casesCsv(columns: ExportColumn[], batches: AsyncIterable<CaseRow[]>): Readable {
  async function* lines() {
    yield `\uFEFF${columns.map((c) => csvField(c.label, '')).join(',')}\r\n`;
    for await (const rows of batches) {
      yield rows
        .map((row) => `${columns.map((c) => csvField(cellValue(row, c.accessor), c.accessor)).join(',')}\r\n`)
        .join('');
    }
  }
  return Readable.from(lines());
}

function casesXlsx(
  columns: ExportColumn[],
  batches: AsyncIterable<CaseRow[]>,
  onError: (error: unknown) => void,
): PassThrough {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('Chargebacks');
  sheet.columns = columns.map((c) => ({
    header: c.label,
    key: c.accessor,
    width: Math.max(12, c.label.length + 2),
  }));
  const fill = async () => {
    for await (const rows of batches) {
      for (const row of rows) sheet.addRow(columns.map((c) => cellValue(row, c.accessor))).commit();
      // Backpressure: wait while the reader has not taken what is written.
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
      ? casesCsv(columns, caseBatches(db, sql, params, pageOnly))
      : casesXlsx(columns, caseBatches(db, sql, params, pageOnly), onError);
  return {
    sql,
    params,
    file: {
      filename: `chargebacks-${stamp()}.${format}`,
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE,
      write,
    },
  };
}

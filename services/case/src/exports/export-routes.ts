import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import ExcelJS from 'exceljs';
import { CaseListQuery, ErrorResponse, type CaseRow } from '@portal/contracts';
import type { Db } from '@portal/core';
import { exportQuery } from '../cases/case-repository';
import { toCaseRow, withLabels, type CaseSqlRow } from '../cases/case-columns';
import { merchantFeatures } from '../merchants/merchant-repository';
import { reference } from '../reference/reference';
import { cellValue, csvField, exportColumns } from './export-columns';

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

/** Export columns for the merchant being worked (client_id, else the user's own), after exportQuery checked its scope. */
async function columnsFor(db: Db, request: { ctx: FastifyRequest['ctx']; query: CaseListQuery }) {
  const merchantId = request.query.client_id ?? request.ctx.merchant_id;
  return exportColumns(request.query, await merchantFeatures(db, request.ctx.tenant, merchantId));
}

/**
 * GET /cm/cases.csv and /cm/cases.xlsx: the list's filters and sort, all rows
 * (export_type=all, the default) or the page (export_type=page), streamed so
 * 100,000 rows never sit in memory.
 */
export const exportRoutes: FastifyPluginAsync = async (app) => {
  const db = app.deps.db;
  const schema = {
    tags: ['exports'],
    querystring: CaseListQuery,
    response: { 400: ErrorResponse, 404: ErrorResponse },
  };

  app.get<{ Querystring: CaseListQuery }>('/cm/cases.csv', { schema }, async (request, reply) => {
    const { sql, params } = await exportQuery(db, request.ctx, request.query);
    const columns = await columnsFor(db, request);
    const batches = caseBatches(db, sql, params, request.query.export_type === 'page');
    async function* lines() {
      yield `\uFEFF${columns.map((c) => csvField(c.label, '')).join(',')}\r\n`;
      for await (const rows of batches) {
        yield rows
          .map(
            (row) => `${columns.map((c) => csvField(cellValue(row, c.accessor), c.accessor)).join(',')}\r\n`,
          )
          .join('');
      }
    }
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="chargebacks-${stamp()}.csv"`)
      .send(Readable.from(lines()));
  });

  app.get<{ Querystring: CaseListQuery }>('/cm/cases.xlsx', { schema }, async (request, reply) => {
    const { sql, params } = await exportQuery(db, request.ctx, request.query);
    const columns = await columnsFor(db, request);
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
      for await (const rows of caseBatches(db, sql, params, request.query.export_type === 'page')) {
        for (const row of rows) sheet.addRow(columns.map((c) => cellValue(row, c.accessor))).commit();
        // Backpressure: wait while the client has not read what is written.
        if (out.writableNeedDrain) await once(out, 'drain');
      }
      sheet.commit();
      await workbook.commit();
    };
    fill().catch((error: unknown) => {
      request.log.error({ err: error }, 'xlsx export failed');
      out.destroy(error instanceof Error ? error : new Error('export failed'));
    });
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="chargebacks-${stamp()}.xlsx"`)
      .send(out);
  });
};

import type { FastifyPluginAsync } from 'fastify';
import {
  ErrorResponse,
  type InternalContext,
  MerchantCreateBody,
  MerchantDescriptors,
  MerchantMids,
  MerchantMidsQuery,
  MerchantIdParams,
  MERCHANT_MID_EXPORT_COLUMNS,
  MerchantMidsExportQuery,
  type MerchantMidRow,
  MerchantPutBody,
  MerchantSaved,
  MerchantTree,
  MerchantTreeQuery,
} from '@portal/contracts';
import { resolveScope } from '../scope/scope';
import { assertMayWrite, publishMerchantChange } from './access';
import { createMerchant, updateMerchant } from './merchant-writes';
import { merchantTree } from './tree';
import { merchantDescriptors, merchantMidBatches, merchantMids } from './merchant-mids';
import { csvExport, exportFileName, XLSX_TYPE, xlsxExport, type TableColumn } from '../exports/table-export';

const MID_STATUS = (id: number) => (id === 2 ? 'Active' : 'Inactive');
const MID_EXPORT: TableColumn<MerchantMidRow>[] = MERCHANT_MID_EXPORT_COLUMNS.map(({ label, accessor }) => ({
  label,
  cell: (row) => (accessor === 'status_id' ? MID_STATUS(row.status_id) : row[accessor]),
}));

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** Merchant hierarchy administration (spec 3 §7 Merchants). */
export const merchantAdminRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: MerchantTreeQuery }>(
    '/cm/merchants/list',
    {
      schema: {
        tags: ['merchants'],
        querystring: MerchantTreeQuery,
        response: { 200: MerchantTree, ...errors },
      },
    },
    async (request) =>
      merchantTree(
        app.deps.db,
        await resolveScope(app.deps.db, request.ctx),
        request.query,
        request.ctx.merchant_id,
      ),
  );

  app.post<{ Body: MerchantCreateBody }>(
    '/cm/merchants',
    {
      schema: { tags: ['merchants'], body: MerchantCreateBody, response: { 201: MerchantSaved, ...errors } },
    },
    async (request, reply) => {
      assertMayWrite(request.ctx, 'CREATE_MERCHANT');
      const scope = await resolveScope(app.deps.db, request.ctx);
      const id = await createMerchant(app.deps.db, scope, request.body, request.ctx.merchant_id);
      await publishMerchantChange(app.deps.cache, scope.tenant, id);
      return reply.status(201).send({ status: 'success', message: 'Merchant successfully added!', id });
    },
  );

  const edit =
    (full: boolean) =>
    async (request: { ctx: InternalContext; params: { id: number }; body: MerchantPutBody }) => {
      assertMayWrite(request.ctx, 'EDIT_MERCHANT');
      const scope = await resolveScope(app.deps.db, request.ctx);
      const { parents, ...rest } = request.body;
      const body: MerchantCreateBody = parents?.length ? { ...rest, parent_id: parents[0] } : rest;
      await updateMerchant(app.deps.db, scope, request.params.id, body, full);
      await publishMerchantChange(app.deps.cache, scope.tenant, request.params.id);
      return { status: 'success' as const, message: 'Merchant successfully updated!', id: request.params.id };
    };

  app.patch<{ Params: { id: number }; Body: MerchantCreateBody }>(
    '/cm/merchants/:id',
    {
      schema: {
        tags: ['merchants'],
        params: MerchantIdParams,
        body: MerchantCreateBody,
        response: { 200: MerchantSaved, ...errors },
      },
    },
    edit(false),
  );
  app.put<{ Params: { id: number }; Body: MerchantPutBody }>(
    '/cm/merchants/:id',
    {
      schema: {
        tags: ['merchants'],
        params: MerchantIdParams,
        body: MerchantPutBody,
        response: { 200: MerchantSaved, ...errors },
      },
    },
    edit(true),
  );

  app.get<{ Params: { id: number }; Querystring: MerchantMidsQuery }>(
    '/cm/merchants/:id/mids',
    {
      schema: {
        tags: ['merchants'],
        params: MerchantIdParams,
        querystring: MerchantMidsQuery,
        response: { 200: MerchantMids, ...errors },
      },
    },
    async (request) =>
      merchantMids(
        app.deps.db,
        await resolveScope(app.deps.db, request.ctx),
        request.params.id,
        request.query,
      ),
  );
  // The Merchant Settings MIDs grid's CSV and Excel exports (every row of the grid, search applied).
  for (const ext of ['csv', 'xlsx'] as const)
    app.get<{ Params: { id: number }; Querystring: MerchantMidsExportQuery }>(
      `/cm/merchants/:id/mids.${ext}`,
      {
        schema: {
          tags: ['merchants', 'exports'],
          params: MerchantIdParams,
          querystring: MerchantMidsExportQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        const scope = await resolveScope(app.deps.db, request.ctx);
        const rows = await merchantMidBatches(app.deps.db, scope, request.params.id, request.query.search);
        const name = exportFileName(`mids-${request.params.id}`, ext);
        return reply
          .header('content-type', ext === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE)
          .header('content-disposition', `attachment; filename="${name}"`)
          .send(
            ext === 'csv'
              ? csvExport(MID_EXPORT, rows)
              : xlsxExport('MIDs', MID_EXPORT, rows, (err) =>
                  request.log.error({ err }, 'MIDs export failed'),
                ),
          );
      },
    );
  app.get<{ Params: { id: number } }>(
    '/cm/merchants/:id/descriptors',
    {
      schema: {
        tags: ['merchants'],
        params: MerchantIdParams,
        response: { 200: MerchantDescriptors, ...errors },
      },
    },
    async (request) =>
      merchantDescriptors(app.deps.db, await resolveScope(app.deps.db, request.ctx), request.params.id),
  );
};

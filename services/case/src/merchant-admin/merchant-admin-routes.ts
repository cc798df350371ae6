import type { FastifyPluginAsync } from 'fastify';
import {
  ErrorResponse,
  type InternalContext,
  MerchantCreateBody,
  MerchantDescriptors,
  MerchantMids,
  MerchantMidsQuery,
  MerchantIdParams,
  MerchantPutBody,
  MerchantSaved,
  MerchantTree,
  MerchantTreeQuery,
} from '@portal/contracts';
import { resolveScope } from '../scope/scope';
import { assertMayWrite, publishMerchantChange } from './access';
import { createMerchant, updateMerchant } from './merchant-writes';
import { merchantTree } from './tree';
import { merchantDescriptors, merchantMids } from './merchant-mids';

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

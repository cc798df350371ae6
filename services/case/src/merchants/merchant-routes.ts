import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  AssigneeBody,
  ErrorResponse,
  Merchant,
  MerchantIdParams,
  MerchantList,
  MerchantListQuery,
  MerchantName,
  MidList,
  MidQuery,
} from '@portal/contracts';
import { forbidden, notFound } from '@portal/core';
import { narrowToMerchant, resolveScope } from '../scope/scope';
import { findMerchant, listMerchants, listMids, upsertAssignee } from './merchant-repository';

export const merchantRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: MerchantListQuery }>(
    '/cm/merchants',
    {
      schema: {
        tags: ['merchants'],
        querystring: MerchantListQuery,
        response: { 200: MerchantList, 400: ErrorResponse },
      },
    },
    async (request) =>
      listMerchants(app.deps.db, await resolveScope(app.deps.db, request.ctx), request.query),
  );

  /** Merchant details (spec 1 §3.2) plus whoami's fields; a system context sees the whole tenant; above one's subtree, the name only. */
  app.get<{ Params: { id: number } }>(
    '/cm/merchants/:id',
    {
      schema: {
        tags: ['merchants'],
        params: MerchantIdParams,
        response: { 200: Type.Union([Merchant, MerchantName]), 404: ErrorResponse },
      },
    },
    async (request) => {
      const scope = await resolveScope(app.deps.db, request.ctx);
      const merchant = await findMerchant(app.deps.db, scope, request.params.id, request.ctx.merchant_id);
      if (!merchant) throw notFound('Merchant not found.');
      return merchant;
    },
  );

  app.get<{
    Querystring: {
      merchant_id?: number;
      status_id?: number;
      search?: string;
      start?: number;
      limit?: number;
    };
  }>(
    '/cm/mids',
    {
      schema: { tags: ['merchants'], querystring: MidQuery, response: { 200: MidList, 400: ErrorResponse } },
    },
    async (request) => {
      const scope = await narrowToMerchant(
        app.deps.db,
        await resolveScope(app.deps.db, request.ctx),
        request.query.merchant_id,
        'merchant_id',
      );
      return listMids(app.deps.db, scope, request.query);
    },
  );

  /** Internal (system context): the user service keeps the assignable staff replica current. */
  app.put<{ Params: { id: number }; Body: AssigneeBody }>(
    '/cm/assignees/:id',
    {
      schema: {
        tags: ['internal'],
        params: MerchantIdParams,
        body: AssigneeBody,
        response: { 204: Type.Null(), 403: ErrorResponse },
      },
    },
    async (request, reply) => {
      if (request.ctx.kind !== 'system') throw forbidden('Only the user service may change assignees.');
      await upsertAssignee(app.deps.db, request.ctx.tenant, request.params.id, request.body);
      return reply.status(204).send();
    },
  );
};

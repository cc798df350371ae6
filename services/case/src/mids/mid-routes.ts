import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  ErrorResponse,
  MID_HISTORY_ROLES,
  MidAlertActionsBody,
  MidAlertActionsResult,
  MidCreateBody,
  MidDetail,
  MidHistory,
  MidHistoryQuery,
  MidIdParams,
  MidSaved,
} from '@portal/contracts';
import { badRequest, forbidden, notFound } from '@portal/core';
import { resolveScope } from '../scope/scope';
import { assertMayWrite, publishMerchantChange } from '../merchant-admin/access';
import { findMid, midHistory } from './mid-repository';
import { createMid, updateMid } from './mid-writes';
import { midTemplateCsv, uploadMids } from './mid-upload';
import { enrolMidsInAlerts } from './mid-alert-actions';

const MAX_CSV_BYTES = 5 * 1024 * 1024;

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

/** MIDs (spec 3 §7 MIDs): get, create, edit, history. The list stays in merchants/merchant-routes. */
export const midRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { id: number } }>(
    '/cm/mids/:id',
    { schema: { tags: ['mids'], params: MidIdParams, response: { 200: MidDetail, ...errors } } },
    async (request) => {
      const mid = await findMid(app.deps.db, await resolveScope(app.deps.db, request.ctx), request.params.id);
      if (!mid) throw notFound('MID not found.');
      return mid;
    },
  );

  app.post<{ Body: MidCreateBody }>(
    '/cm/mids',
    { schema: { tags: ['mids'], body: MidCreateBody, response: { 201: MidSaved, ...errors } } },
    async (request, reply) => {
      assertMayWrite(request.ctx, 'CREATE_MID');
      const scope = await resolveScope(app.deps.db, request.ctx);
      const data = await createMid(app.deps.db, scope, request.body);
      await publishMerchantChange(app.deps.cache, scope.tenant, data.merchant_id);
      return reply.status(201).send({ status: 'success', message: 'MID successfully added!', data });
    },
  );

  app.post<{ Body: MidAlertActionsBody }>(
    '/cm/mids/alert-actions',
    {
      schema: {
        tags: ['mids'],
        body: MidAlertActionsBody,
        response: { 200: MidAlertActionsResult, ...errors },
      },
    },
    async (request) => {
      assertMayWrite(request.ctx, 'EDIT_MID');
      const scope = await resolveScope(app.deps.db, request.ctx);
      const { result, merchantIds } = await enrolMidsInAlerts(app.deps.db, scope, request.ctx, request.body);
      for (const id of merchantIds) await publishMerchantChange(app.deps.cache, scope.tenant, id);
      return result;
    },
  );

  app.patch<{ Params: { id: number }; Body: MidCreateBody }>(
    '/cm/mids/:id',
    {
      schema: {
        tags: ['mids'],
        params: MidIdParams,
        body: MidCreateBody,
        response: { 200: MidSaved, ...errors },
      },
    },
    async (request) => {
      assertMayWrite(request.ctx, 'EDIT_MID');
      const scope = await resolveScope(app.deps.db, request.ctx);
      const data = await updateMid(app.deps.db, scope, request.ctx, request.params.id, request.body);
      await publishMerchantChange(app.deps.cache, scope.tenant, data.merchant_id);
      return { status: 'success' as const, message: 'MID successfully updated!', data };
    },
  );

  app.get<{ Params: { id: number }; Querystring: MidHistoryQuery }>(
    '/cm/mids/:id/history',
    {
      schema: {
        tags: ['mids'],
        params: MidIdParams,
        querystring: MidHistoryQuery,
        response: { 200: MidHistory, ...errors },
      },
    },
    async (request) => {
      const roles = request.ctx.roles.map((r) => r.toLowerCase());
      if (request.ctx.kind !== 'system' && !MID_HISTORY_ROLES.some((r) => roles.includes(r)))
        throw forbidden('Not available.');
      const scope = await resolveScope(app.deps.db, request.ctx);
      const mid = await findMid(app.deps.db, scope, request.params.id);
      if (!mid) throw notFound('MID not found.');
      return midHistory(app.deps.db, scope.tenant, mid.id, request.query);
    },
  );

  app.get('/cm/templates/mids.csv', { schema: { tags: ['mids'] } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="mids.csv"')
      .send(midTemplateCsv()),
  );

  // Bulk MID upload (multipart: merchant_id + mids), all rows or none.
  await app.register(async (upload) => {
    // Two files allowed by the parser so a second one gets the spec's message, not a bare 413.
    await upload.register(multipart, {
      limits: {
        fieldNameSize: 100,
        fieldSize: 100,
        fields: 5,
        files: 2,
        parts: 7,
        headerPairs: 20,
        fileSize: MAX_CSV_BYTES,
      },
    });
    upload.post(
      '/cm/mids/upload',
      {
        schema: {
          tags: ['mids'],
          consumes: ['multipart/form-data'],
          response: {
            201: Type.Object({
              status: Type.Literal('success'),
              message: Type.String(),
              count: Type.Integer(),
            }),
            ...errors,
          },
        },
      },
      async (request, reply) => {
        assertMayWrite(request.ctx, 'CREATE_MID');
        if (!request.isMultipart()) throw badRequest('The upload must be a multipart form.');
        const fields: Record<string, string> = {};
        let csv: string | null = null;
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            if (typeof part.value !== 'string' || part.fieldname in fields)
              throw badRequest(`${part.fieldname}: a single value is expected.`);
            fields[part.fieldname] = part.value;
          } else if (part.fieldname === 'mids' && csv === null) {
            const buf = await part.toBuffer();
            if (part.file.truncated) throw badRequest('mids: the file is larger than 5 MB.');
            csv = buf.toString('utf8');
          } else {
            throw badRequest('Only a single CSV file is allowed.');
          }
        }
        const merchantId = /^[1-9]\d{0,9}$/.test(fields.merchant_id ?? '') ? Number(fields.merchant_id) : 0;
        if (!(merchantId > 0 && merchantId <= 2_147_483_647))
          throw badRequest('merchant_id: Field required!');
        if (csv === null) throw badRequest('mids: Field required!');
        const scope = await resolveScope(app.deps.db, request.ctx);
        const count = await uploadMids(app.deps.db, scope, merchantId, csv);
        await publishMerchantChange(app.deps.cache, scope.tenant, merchantId);
        return reply.status(201).send({ status: 'success', message: 'MIDs successfully uploaded.', count });
      },
    );
  });
};

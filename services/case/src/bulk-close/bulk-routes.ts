import type { FastifyPluginAsync } from 'fastify';
import {
  AutoAcceptBody,
  AutoRefundSubmit,
  BulkJob,
  BulkJobConfirm,
  BulkJobIdParams,
  BulkJobList,
  BulkJobListQuery,
  ErrorResponse,
} from '@portal/contracts';
import { badRequest } from '@portal/core';
import type { Static } from '@sinclair/typebox';
import { cancelBulkJob, confirmBulkJob, listBulkJobs, submitBulkJob } from './bulk-jobs';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const REQUIRED = 'This field is required';

/**
 * Bulk close (GET/POST /cm/cases/process/autoaccept, spec 2 §2.9) and the
 * alerts' auto-refund rules (GET/POST /cm/svc/alerts/auto-refund and
 * POST .../{id}/confirm): submit answers the pending job with its count,
 * confirm queues the background job, cancel (is_confirmed 0) discards it.
 */
export const bulkRoutes: FastifyPluginAsync = async (app) => {
  const db = app.deps.db;

  app.get<{ Querystring: BulkJobListQuery }>(
    '/cm/cases/process/autoaccept',
    {
      schema: {
        tags: ['bulk-close'],
        querystring: BulkJobListQuery,
        response: { 200: BulkJobList, ...errors },
      },
    },
    async (request) => listBulkJobs(db, request.ctx, 'auto_accept', request.query),
  );

  app.post<{ Body: AutoAcceptBody }>(
    '/cm/cases/process/autoaccept',
    { schema: { tags: ['bulk-close'], body: AutoAcceptBody, response: { 200: BulkJob, ...errors } } },
    async (request) => {
      const b = request.body;
      if (b.is_confirmed !== undefined) {
        if (b.id === undefined)
          throw badRequest(`id: ${REQUIRED}`, { fields: [{ name: 'id', errors: [REQUIRED] }] });
        return b.is_confirmed === 1
          ? confirmBulkJob(db, request.ctx, 'auto_accept', b.id)
          : cancelBulkJob(db, request.ctx, 'auto_accept', b.id);
      }
      const missing = (['amt_from', 'amt_to', 'currency_id', 'cycle_id', 'reason_code_id'] as const).filter(
        (k) => b[k] === undefined,
      );
      if (missing.length)
        throw badRequest(`${missing.join(', ')}: ${REQUIRED}`, {
          fields: missing.map((name) => ({ name, errors: [REQUIRED] })),
        });
      return submitBulkJob(db, request.ctx, 'auto_accept', {
        amt_from: b.amt_from!,
        amt_to: b.amt_to!,
        currency_id: b.currency_id!,
        cycle_id: b.cycle_id!,
        reason_code_id: b.reason_code_id!,
        not_worth_fighting: b.not_worth_fighting,
        merchant_id: b.merchant_id,
      });
    },
  );

  app.get<{ Querystring: BulkJobListQuery }>(
    '/cm/svc/alerts/auto-refund',
    {
      schema: { tags: ['alerts'], querystring: BulkJobListQuery, response: { 200: BulkJobList, ...errors } },
    },
    async (request) => listBulkJobs(db, request.ctx, 'auto_refund', request.query),
  );

  app.post<{ Body: Static<typeof AutoRefundSubmit> }>(
    '/cm/svc/alerts/auto-refund',
    { schema: { tags: ['alerts'], body: AutoRefundSubmit, response: { 200: BulkJob, ...errors } } },
    async (request) => submitBulkJob(db, request.ctx, 'auto_refund', request.body),
  );

  app.post<{ Params: Static<typeof BulkJobIdParams>; Body: BulkJobConfirm }>(
    '/cm/svc/alerts/auto-refund/:id/confirm',
    {
      schema: {
        tags: ['alerts'],
        params: BulkJobIdParams,
        body: BulkJobConfirm,
        response: { 200: BulkJob, ...errors },
      },
    },
    async (request) =>
      request.body?.is_confirmed === 0
        ? cancelBulkJob(db, request.ctx, 'auto_refund', request.params.id)
        : confirmBulkJob(db, request.ctx, 'auto_refund', request.params.id),
  );
};

import type { FastifyPluginAsync } from 'fastify';
import {
  CaseImportBody,
  CaseImportResult,
  ErrorResponse,
  isCalendarDate,
  type InternalContext,
} from '@portal/contracts';
import { badRequest, notFound, type Queryable } from '@portal/core';
import { emitEvent } from '@portal/jobs';
import { addHistory } from '../cases/case-history';
import { assertFeedCaller } from '../scope/feed-caller';

/**
 * POST /cm/cases/import (issue 19): chargebacks arrive from the acquirers'
 * and networks' feeds. The spec shows no such call; a dispute portal has
 * one, and without it CASE_CREATED could never fire. Callers: the provider's
 * administrators (an API user of role cb911_admin; the gateway's policy names
 * the role) and system calls. The case, its first history row and
 * CASE_CREATED commit together; a resent chargeback (same source and
 * source_case_id) changes nothing and emits nothing.
 */
const NEW = { status_id: 1, status_group_id: 1, verdict_id: 3 } as const;
const FIELD = (id: string, message: string) =>
  badRequest('The chargeback is not valid.', { fields: [{ id, errors: [message] }] });

async function one<T>(tx: Queryable, sql: string, params: unknown[]): Promise<T | undefined> {
  return (await tx.query<T & Record<string, unknown>>(sql, params)).rows[0];
}

export async function importCase(
  tx: Queryable,
  ctx: InternalContext,
  b: CaseImportBody,
): Promise<CaseImportResult> {
  const mid = await one<{ merchant_id: string; processor_id: number | null; descriptor_id: string | null }>(
    tx,
    `select m.merchant_id, m.processor_id, (select min(d.id) from cases.descriptors d where d.mid_id = m.id) as descriptor_id
       from cases.mids m where m.tenant_id = $1 and m.id = $2`,
    [ctx.tenant, b.mid_id],
  );
  if (!mid) throw notFound('MID not found.');
  if (!(await one(tx, `select 1 from cases.sources where id = $1`, [b.source_id])))
    throw FIELD('source_id', 'Unknown source.');
  if (!(await one(tx, `select 1 from cases.cycles where id = $1`, [b.cycle_id])))
    throw FIELD('cycle_id', 'Unknown cycle.');
  if (!(await one(tx, `select 1 from cases.currencies where id = $1`, [b.dispute_currency_id])))
    throw FIELD('dispute_currency_id', 'Unknown currency.');
  const rc = await one<{ card_type_id: number; is_fraud: boolean; code: string }>(
    tx,
    `select card_type_id, is_fraud, code from cases.reason_codes where id = $1`,
    [b.reason_code_id],
  );
  if (!rc) throw FIELD('reason_code_id', 'Unknown reason code.');
  for (const [field, value] of [
    ['date_post', b.date_post],
    ['date_due', b.date_due],
    ['date_trans', b.date_trans],
  ] as const)
    if (value !== undefined && !isCalendarDate(value)) throw FIELD(field, 'Not a valid date.');
  if (b.date_due < b.date_post) throw FIELD('date_due', 'The due date cannot be before the post date.');

  const inserted = await tx.query<{ id: string }>(
    `insert into cases.cases (tenant_id, merchant_id, mid_id, descriptor_id, case_no, order_id, cycle_id, card_type_id,
       cc_bin, cc_last_four, reason_code_id, is_fraud, date_post, date_due, date_trans, dispute_amt, dispute_currency_id,
       trans_amt, trans_currency_id, status_id, status_group_id, verdict_id, processor_id, source_id, arn, source_ref)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $16, $17, $18, $19, $20, $21,
       $22, $23, $24)
     on conflict (tenant_id, source_id, source_ref) where source_ref is not null do nothing
     returning id`,
    [
      ctx.tenant,
      mid.merchant_id,
      b.mid_id,
      mid.descriptor_id,
      b.case_no.trim(),
      b.order_id ?? null,
      b.cycle_id,
      rc.card_type_id,
      b.cc_bin ?? null,
      b.cc_last_four ?? null,
      b.reason_code_id,
      rc.is_fraud,
      b.date_post,
      b.date_due,
      b.date_trans ?? null,
      b.dispute_amt,
      b.dispute_currency_id,
      NEW.status_id,
      NEW.status_group_id,
      NEW.verdict_id,
      mid.processor_id,
      b.source_id,
      b.arn ?? null,
      b.source_case_id,
    ],
  );
  if (!inserted.rows.length) {
    const existing = await one<{ id: string }>(
      tx,
      `select id from cases.cases where tenant_id = $1 and source_id = $2 and source_ref = $3`,
      [ctx.tenant, b.source_id, b.source_case_id],
    );
    return { id: Number(existing!.id), created: false };
  }
  const id = Number(inserted.rows[0]!.id);
  await addHistory(tx, ctx, [{ caseId: id, action: 'Imported' }]);
  await emitEvent(
    tx,
    ctx.tenant,
    {
      type: 'CASE_CREATED',
      merchant_id: Number(mid.merchant_id),
      data: {
        case_id: id,
        case_no: b.case_no.trim(),
        mid_id: b.mid_id,
        status: 'New',
        reason_code: rc.code,
        dispute_amt: b.dispute_amt,
        dispute_currency_id: b.dispute_currency_id,
        date_post: b.date_post,
        date_due: b.date_due,
      },
    },
    ctx.user_id,
  );
  return { id, created: true };
}

export const caseImportRoutes: FastifyPluginAsync = async (app) => {
  app.post<{ Body: CaseImportBody }>(
    '/cm/cases/import',
    {
      schema: {
        tags: ['cases'],
        summary: 'A chargeback from a feed (idempotent on source and source_case_id)',
        body: CaseImportBody,
        response: {
          200: CaseImportResult,
          201: CaseImportResult,
          400: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const ctx = request.ctx;
      assertFeedCaller(ctx, {
        notAllowed: 'Only the provider’s administrators import chargebacks.',
        readOnly: 'Read-only users cannot change cases.',
      });
      const result = await app.deps.db.transaction((tx) => importCase(tx, ctx, request.body));
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );
};

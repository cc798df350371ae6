import type { FastifyPluginAsync } from 'fastify';
import {
  AlertIngestBody,
  AlertIngestResult,
  ErrorResponse,
  isCalendarDate,
  type InternalContext,
} from '@portal/contracts';
import { badRequest, notFound, type Queryable } from '@portal/core';
import { emitEvent } from '@portal/jobs';
import { assertFeedCaller } from '../scope/feed-caller';
import { addAlertHistory } from './alert-writes';

/**
 * POST /cm/alerts (issue 19): alerts arrive from the networks' feeds. The
 * spec shows no ingestion call; a dispute portal has one, and without it
 * ALERT_CREATED could never fire. Callers: the provider's administrators
 * (an API user of role cb911_admin; the gateway's policy names the role) and
 * system calls. The alert, its descriptor (created unmapped, 'Select MID',
 * when new) and ALERT_CREATED commit together; a resent alert (same source
 * and source_alert_id) changes nothing and emits nothing.
 */
const FIELD = (id: string, message: string) =>
  badRequest('The alert is not valid.', { fields: [{ id, errors: [message] }] });

async function exists(tx: Queryable, table: 'sources' | 'currencies' | 'card_types', id: number) {
  const r = await tx.query(`select 1 from cases.${table} where id = $1`, [id]);
  return r.rows.length > 0;
}

async function ingestAlert(
  tx: Queryable,
  ctx: InternalContext,
  b: AlertIngestBody,
): Promise<AlertIngestResult> {
  const merchant = await tx.query(`select 1 from cases.merchants where tenant_id = $1 and id = $2`, [
    ctx.tenant,
    b.merchant_id,
  ]);
  if (!merchant.rows.length) throw notFound('Merchant not found.');
  if (!(await exists(tx, 'sources', b.source_id))) throw FIELD('source_id', 'Unknown alert source.');
  if (!(await exists(tx, 'currencies', b.currency_id))) throw FIELD('currency_id', 'Unknown currency.');
  if (!(await exists(tx, 'card_types', b.card_type_id))) throw FIELD('card_type_id', 'Unknown card type.');
  if (!isCalendarDate(b.trans_date)) throw FIELD('trans_date', 'Not a valid date.');
  const alertDate = b.alert_date ? new Date(b.alert_date) : new Date();
  const expires = new Date(b.expiration_date);
  if (Number.isNaN(alertDate.getTime())) throw FIELD('alert_date', 'Not a valid date and time.');
  if (Number.isNaN(expires.getTime()) || expires <= alertDate)
    throw FIELD('expiration_date', 'Must be a valid date and time after the alert date.');

  const descriptor = b.descriptor.trim();
  await tx.query(
    `insert into cases.alert_descriptors (tenant_id, merchant_id, descriptor) values ($1, $2, $3)
     on conflict (tenant_id, merchant_id, descriptor) do nothing`,
    [ctx.tenant, b.merchant_id, descriptor],
  );
  const d = await tx.query<{ id: string }>(
    `select id from cases.alert_descriptors where tenant_id = $1 and merchant_id = $2 and descriptor = $3`,
    [ctx.tenant, b.merchant_id, descriptor],
  );
  const inserted = await tx.query<{ id: string }>(
    `insert into cases.alerts (tenant_id, merchant_id, descriptor_id, source_id, source_ref, order_id, trans_amount,
       currency_id, trans_date, card_type_id, cc_bin, cc_last_four, alert_date, expiration_date)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     on conflict (tenant_id, source_id, source_ref) where source_ref is not null do nothing
     returning id`,
    [
      ctx.tenant,
      b.merchant_id,
      d.rows[0]!.id,
      b.source_id,
      b.source_alert_id,
      b.order_id ?? null,
      b.trans_amount,
      b.currency_id,
      b.trans_date,
      b.card_type_id,
      b.cc_bin ?? null,
      b.cc_last_four ?? null,
      alertDate.toISOString(),
      expires.toISOString(),
    ],
  );
  if (!inserted.rows.length) {
    const existing = await tx.query<{ id: string }>(
      `select id from cases.alerts where tenant_id = $1 and source_id = $2 and source_ref = $3`,
      [ctx.tenant, b.source_id, b.source_alert_id],
    );
    return { id: Number(existing.rows[0]!.id), created: false };
  }
  const id = Number(inserted.rows[0]!.id);
  await addAlertHistory(tx, ctx, { tenant: ctx.tenant, id }, null, null, 'Received');
  await emitEvent(
    tx,
    ctx.tenant,
    {
      type: 'ALERT_CREATED',
      merchant_id: b.merchant_id,
      data: {
        alert_id: id,
        source_id: b.source_id,
        source_alert_id: b.source_alert_id,
        descriptor,
        trans_amount: b.trans_amount,
        currency_id: b.currency_id,
        trans_date: b.trans_date,
        alert_date: alertDate.toISOString(),
        expiration_date: expires.toISOString(),
      },
    },
    ctx.user_id,
  );
  return { id, created: true };
}

export const alertIngestRoutes: FastifyPluginAsync = async (app) => {
  app.post<{ Body: AlertIngestBody }>(
    '/cm/alerts',
    {
      schema: {
        tags: ['alerts'],
        summary: 'An alert from a network feed (idempotent on source and source_alert_id)',
        body: AlertIngestBody,
        response: {
          200: AlertIngestResult,
          201: AlertIngestResult,
          400: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const ctx = request.ctx;
      assertFeedCaller(ctx, {
        notAllowed: 'Only the provider’s administrators send alerts.',
        readOnly: 'Read-only users cannot change alerts.',
      });
      const result = await app.deps.db.transaction((tx) => ingestAlert(tx, ctx, request.body));
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );
};

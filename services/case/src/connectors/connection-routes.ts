import { createHash, randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import {
  CONNECTOR_MESSAGES as M,
  ConnectionCreateBody,
  ConnectionItemParams,
  ConnectionList,
  ConnectionMessage,
  ConnectionParams,
  ConnectionSecretBody,
  ConnectionView,
  ErrorResponse,
  isProviderStaff,
  type InternalContext,
} from '@portal/contracts';
import { badRequest, conflict, forbidden, notFound, type Queryable } from '@portal/core';
import { ConnectorError, lastFour } from '@portal/connectors';
import { resolveScope } from '../scope/scope';
import { enqueueBackfill } from './backfill-job';
import { connectorFor, sealedFor, secretBox } from './connector-registry';
import {
  connectionsOfMerchant,
  deleteConnection,
  insertConnection,
  setBackfillJob,
  setWebhookSecret,
  toView,
} from './connection-repository';

/**
 * A merchant's processor connections (issue 32): merchant administrators
 * for their own merchant (and its subtree), provider staff for any merchant
 * of the tenant. The key is proved by one read call before anything is
 * stored; secrets are sealed before they reach the database and never come
 * back. The gateway audits every write.
 */
function assertManager(ctx: InternalContext, write: boolean) {
  if (!isProviderStaff(ctx.roles) && !ctx.roles.includes('merchant_admin')) throw forbidden(M.notAllowed);
  if (write && ctx.read_only) throw forbidden(M.readOnly);
}

/** The merchant, when the caller's scope holds it (unknown and out of scope answer alike). */
async function assertMerchant(db: Queryable, ctx: InternalContext, merchantId: number) {
  const scope = await resolveScope(db, ctx);
  const { rows } = await db.query(`select 1 from cases.merchants where tenant_id = $1 and id = $2`, [
    ctx.tenant,
    merchantId,
  ]);
  if (!rows.length || (scope.merchantIds !== null && !scope.merchantIds.includes(merchantId)))
    throw notFound('Merchant not found.');
}

export const connectionRoutes: FastifyPluginAsync = async (app) => {
  const { db, env } = app.deps;
  const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

  app.get<{ Params: { id: number } }>(
    '/cm/merchants/:id/connections',
    {
      schema: {
        tags: ['connectors'],
        summary: "A merchant's processor connections (no secret: the API key's last four only)",
        params: ConnectionParams,
        response: { 200: ConnectionList, ...errors },
      },
    },
    async (request) => {
      assertManager(request.ctx, false);
      await assertMerchant(db, request.ctx, request.params.id);
      const rows = await connectionsOfMerchant(db, request.ctx.tenant, request.params.id);
      return { data: await Promise.all(rows.map((r) => toView(db, r))) };
    },
  );

  app.post<{ Params: { id: number }; Body: ConnectionCreateBody }>(
    '/cm/merchants/:id/connections',
    {
      schema: {
        tags: ['connectors'],
        summary:
          'Connect a Stripe account: the key is checked by one read call, then sealed; a backfill starts',
        params: ConnectionParams,
        body: ConnectionCreateBody,
        response: { 201: ConnectionView, 409: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const ctx = request.ctx;
      const merchantId = request.params.id;
      const b = request.body;
      assertManager(ctx, true);
      await assertMerchant(db, ctx, merchantId);
      const mids = await db.query(
        `select id from cases.mids where tenant_id = $1 and merchant_id = $2 and id = any($3::bigint[])`,
        [ctx.tenant, merchantId, b.mid_ids],
      );
      if (mids.rows.length !== b.mid_ids.length)
        throw badRequest(M.midNotOfMerchant, { fields: [{ id: 'mid_ids', errors: [M.midNotOfMerchant] }] });

      // The one read call, outside any transaction (design §13).
      let account: { accountId: string; accountName: string | null };
      try {
        account = await connectorFor(env, b.processor).client({ apiKey: b.api_key }).validate();
      } catch (error) {
        if (error instanceof ConnectorError)
          throw badRequest(error.message, { fields: [{ id: 'api_key', errors: [error.message] }] });
        throw error;
      }
      // A restricted key that may not read its account is told apart by a digest of the key itself.
      const accountId =
        account.accountId === 'restricted'
          ? `restricted:${createHash('sha256').update(b.api_key).digest('hex').slice(0, 16)}`
          : account.accountId;
      const id = randomUUID();
      const box = secretBox(env);
      const view = await db.transaction(async (tx) => {
        const inserted = await insertConnection(tx, {
          id,
          tenant_id: ctx.tenant,
          merchant_id: merchantId,
          processor: b.processor,
          account_id: accountId,
          account_name: account.accountName,
          api_key_sealed: box.seal(b.api_key, sealedFor(ctx.tenant, id, 'api_key')),
          api_key_last4: lastFour(b.api_key),
          webhook_secret_sealed: b.webhook_secret
            ? box.seal(b.webhook_secret, sealedFor(ctx.tenant, id, 'webhook_secret'))
            : null,
          mid_ids: b.mid_ids,
          created_by: ctx.user_id,
        });
        if (!inserted) throw conflict(M.alreadyConnected);
        const job = await enqueueBackfill(tx, ctx.tenant, id, ctx.user_id);
        await setBackfillJob(tx, id, job.id);
        const rows = await connectionsOfMerchant(tx, ctx.tenant, merchantId);
        return toView(
          tx,
          rows.find((r) => r.id === id)!,
        );
      });
      request.log.info(
        { connection: id, processor: b.processor, merchant: merchantId },
        'connector connected',
      );
      return reply.status(201).send(view);
    },
  );

  app.put<{ Params: { id: number; connectionId: string }; Body: ConnectionSecretBody }>(
    '/cm/merchants/:id/connections/:connectionId/webhook-secret',
    {
      schema: {
        tags: ['connectors'],
        summary: "The signing secret of the connection's webhook endpoint (sealed; replaces any earlier one)",
        params: ConnectionItemParams,
        body: ConnectionSecretBody,
        response: { 200: ConnectionMessage, ...errors },
      },
    },
    async (request) => {
      const ctx = request.ctx;
      const { id: merchantId, connectionId } = request.params;
      assertManager(ctx, true);
      await assertMerchant(db, ctx, merchantId);
      const sealed = secretBox(env).seal(
        request.body.webhook_secret,
        sealedFor(ctx.tenant, connectionId, 'webhook_secret'),
      );
      const saved = await db.transaction((tx) =>
        setWebhookSecret(tx, ctx.tenant, merchantId, connectionId, sealed),
      );
      if (!saved) throw notFound(M.notFound);
      return { message: M.secretSaved };
    },
  );

  app.delete<{ Params: { id: number; connectionId: string } }>(
    '/cm/merchants/:id/connections/:connectionId',
    {
      schema: {
        tags: ['connectors'],
        summary: 'Disconnect: the sealed keys are deleted; the cases stay',
        params: ConnectionItemParams,
        response: { 200: ConnectionMessage, ...errors },
      },
    },
    async (request) => {
      const ctx = request.ctx;
      assertManager(ctx, true);
      await assertMerchant(db, ctx, request.params.id);
      const deleted = await db.transaction((tx) =>
        deleteConnection(tx, ctx.tenant, request.params.id, request.params.connectionId),
      );
      if (!deleted) throw notFound(M.notFound);
      return { message: M.disconnected };
    },
  );
};

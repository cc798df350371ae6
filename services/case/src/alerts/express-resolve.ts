import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { ErrorResponse, ExpressResolve, Id } from '@portal/contracts';
import { notFound, unauthorized } from '@portal/core';
import { Type, type Static } from '@sinclair/typebox';
import { alertScope } from './alert-scope';

const Params = Type.Object({ id: Id() });

/** Verify tokens live 15 minutes: long enough to load the frame, short enough that a leaked URL is soon useless. */
const TOKEN_SECONDS = 15 * 60;

/**
 * GET /cm/merchants/{id}/express-resolve (spec 2 §2.11, §7): what the
 * embedded alerts frame needs for a merchant in the caller's scope. The
 * verify token is an HMAC over client id, user and expiry with a key derived
 * one-way from the service secret (label 'express-resolve'), so the embed
 * host can be given that derived key without learning the internal secret.
 */
export const expressResolveRoutes: FastifyPluginAsync = async (app) => {
  const key = createHmac('sha256', app.deps.contextSecret).update('express-resolve').digest();
  app.get<{ Params: Static<typeof Params> }>(
    '/cm/merchants/:id/express-resolve',
    {
      schema: {
        tags: ['alerts'],
        params: Params,
        response: { 200: ExpressResolve, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const ctx = request.ctx;
      if (ctx.kind !== 'user' || ctx.user_id === null) throw unauthorized('No authenticated user');
      await alertScope(app.deps.db, ctx, { merchant_id: request.params.id });
      const { rows } = await app.deps.db.query<{
        contact_fname: string | null;
        contact_lname: string | null;
      }>('select contact_fname, contact_lname from cases.merchants where tenant_id = $1 and id = $2', [
        ctx.tenant,
        request.params.id,
      ]);
      if (!rows[0]) throw notFound('Merchant not found.');
      const clientId = `${ctx.tenant}-${request.params.id}`;
      const exp = Math.floor(Date.now() / 1000) + TOKEN_SECONDS;
      const mac = createHmac('sha256', key).update(`${clientId}:${ctx.user_id}:${exp}`).digest('base64url');
      return {
        ers_client_id: clientId,
        token: `${exp}.${mac}`,
        identity: `${ctx.tenant}:${ctx.user_id}`,
        first_name: rows[0].contact_fname ?? '',
        last_name: rows[0].contact_lname ?? '',
        session_token: randomBytes(24).toString('base64url'),
      };
    },
  );
};

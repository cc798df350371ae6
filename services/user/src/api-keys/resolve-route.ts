import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiKeyResolveBody, ApiKeyResolved, ErrorResponse } from '@portal/contracts';
import { forbidden, HttpError } from '@portal/core';
import type { UserServiceState } from '../lib/context';
import { findUserById, USER_STATUS } from '../users/repository';
import type { Actor } from '../users/access';
import { mayManageKeys, merchantInScope } from './api-key-access';
import { findKey, statusOf, touchKey, validUntil } from './api-key-repository';
import { sameHash } from './key-secrets';

/** The gateway logs the reason; the caller only ever learns that the key is not valid. */
const refused = (reason: string) => new HttpError(401, reason);

/**
 * POST /users/internal/api-keys/resolve (issue 35.1): the gateway's only door
 * to the keys (it never reads this schema). A key answers when its hash
 * matches (constant time), it is neither revoked nor expired, and its creator
 * is active, still holds a key-manager role and still has the key's merchant
 * in scope; the gateway then applies the creator's current profile per call.
 */
export async function apiKeyResolveRoute(base: FastifyInstance, state: UserServiceState) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;
  app.post(
    '/users/internal/api-keys/resolve',
    {
      schema: {
        tags: ['internal'],
        summary: 'Resolve an API key (gateway only)',
        body: ApiKeyResolveBody,
        response: { 200: ApiKeyResolved, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => {
      const ctx = request.ctx;
      if (ctx.kind !== 'system') throw forbidden();
      const { id, sha256, used_from } = request.body;
      const row = await findKey(db, ctx.tenant, id);
      if (!row || !sameHash(row.secret_sha256, sha256)) throw refused('unknown key');
      const status = statusOf(row);
      if (status === 'revoked' || status === 'expired') throw refused(status);
      const creator = await findUserById(db, ctx.tenant, Number(row.created_by));
      if (!creator || creator.status_id !== USER_STATUS.ACTIVE) throw refused('creator inactive');
      if (!mayManageKeys(creator)) throw refused('creator role');
      const actor: Actor = {
        tenant: ctx.tenant,
        requestId: ctx.request_id,
        user: creator,
        readOnly: false,
        merchants: new Map(),
      };
      if (!(await merchantInScope(state, actor, Number(row.merchant_id))))
        throw refused('merchant out of scope');
      if (used_from !== undefined) await touchKey(db, ctx.tenant, id, used_from);
      return {
        id: row.id,
        merchant_id: Number(row.merchant_id),
        scopes: row.scopes,
        created_by: creator.id,
        valid_until: validUntil(row)?.toISOString() ?? null,
      };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  API_KEY_INVALIDATION,
  API_KEY_MESSAGES as M,
  ApiKey,
  ApiKeyCreateBody,
  ApiKeyCreated,
  ApiKeyIdParams,
  ApiKeyList,
  ApiKeyListQuery,
  ApiKeyRotateBody,
  ErrorResponse,
  INVALIDATE_CHANNEL,
  type ApiKeyScope,
  type InvalidationMessage,
} from '@portal/contracts';
import { badRequest, conflict, notFound, type Queryable } from '@portal/core';
import { audit, type UserServiceState } from '../lib/context';
import { keyManager, merchantInScope, requireMerchantInScope, type KeyManager } from './api-key-access';
import {
  endWithGrace,
  findKey,
  insertKey,
  listKeys,
  revokeKey,
  statusOf,
  toApiKey,
  type KeyRow,
} from './api-key-repository';
import { newKey, newKeyId, sha256 } from './key-secrets';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const MAX_EXPIRY_MS = 2 * 366 * 24 * 3600 * 1000;

/** Checks of a new key's fields beyond the schema; the merchant's scope is checked by the caller. */
function checkNewKey(m: KeyManager, merchantId: number, scopes: ApiKeyScope[], expiresAt: string | null) {
  if (new Set(scopes).size !== scopes.length)
    throw badRequest(M.duplicateScopes, { fields: [{ field: 'scopes', message: M.duplicateScopes }] });
  // The webhook routes act on the caller's own merchant: a key of another merchant would reach further.
  if (scopes.includes('webhooks:manage') && merchantId !== Number(m.user.merchant_id))
    throw badRequest(M.webhooksOwnMerchant, {
      fields: [{ field: 'scopes', message: M.webhooksOwnMerchant }],
    });
  if (expiresAt !== null) {
    const at = Date.parse(expiresAt);
    const message = at <= Date.now() ? M.expiryPast : at - Date.now() > MAX_EXPIRY_MS ? M.expiryTooFar : null;
    if (message) throw badRequest(message, { fields: [{ field: 'expires_at', message }] });
  }
}

/** Stores a new key under a fresh id (retried on the rare clash); answers it with the secret, once. */
async function createKey(
  db: Queryable,
  m: KeyManager,
  fields: {
    merchantId: number;
    name: string;
    scopes: ApiKeyScope[];
    expiresAt: string | null;
    rotatedFrom: string | null;
  },
) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const id = newKeyId();
    const secret = newKey(id);
    const stored = await insertKey(db, {
      tenant: m.actor.tenant,
      id,
      merchantId: fields.merchantId,
      name: fields.name,
      scopes: fields.scopes,
      sha256: sha256(secret),
      lastFour: secret.slice(-4),
      createdBy: m.user.id,
      expiresAt: fields.expiresAt,
      rotatedFrom: fields.rotatedFrom,
    });
    if (stored) return { id, secret };
  }
  throw conflict('Could not create a key right now. Please try again.');
}

/**
 * Merchant API keys (issue 35.1) under /users/api-keys: list, create (the key
 * answered once), revoke, rotate (a new key with the same scopes; the old one
 * valid for the grace period chosen). Merchant and partner admins manage keys
 * of their subtree, provider admins and managers any merchant's; the gateway
 * refuses these calls to API keys themselves.
 */
export async function apiKeyRoutes(base: FastifyInstance, state: UserServiceState) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, cache } = app.deps;

  /** Every gateway drops its copy of the key at once (design §4 step 8). */
  const publishKeyChange = (tenant: string, id: string) => {
    const message: InvalidationMessage = { tenant, kind: API_KEY_INVALIDATION, id };
    return cache.publish(INVALIDATE_CHANNEL, JSON.stringify(message));
  };

  /** A key of the manager's scope; 404 for others (nothing told about keys of other merchants). */
  async function keyInScope(m: KeyManager, id: string): Promise<KeyRow> {
    const row = await findKey(db, m.actor.tenant, id);
    if (!row || !(await merchantInScope(state, m.actor, Number(row.merchant_id)))) throw notFound(M.notFound);
    return row;
  }

  app.get(
    '/users/api-keys',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'List API keys',
        querystring: ApiKeyListQuery,
        response: { 200: ApiKeyList, ...errors },
      },
    },
    async (request) => {
      const m = await keyManager(request, db, false);
      const q = request.query;
      const start = q.start ?? 0;
      const limit = q.limit ?? 50;
      if (q.merchant_id !== undefined) await requireMerchantInScope(state, m, q.merchant_id);
      const wanted = q.merchant_id !== undefined ? [q.merchant_id] : await merchantsInScope(m);
      const { rows, total } = await listKeys(db, m.actor.tenant, wanted, { start, limit });
      return { data: rows.map(toApiKey), pagination: { total, limit, start } };
    },
  );

  /** The merchants of the tenant's keys the manager may see (null: all, provider staff). */
  async function merchantsInScope(m: KeyManager): Promise<number[] | null> {
    const { rows } = await db.query<{ merchant_id: string }>(
      'select distinct merchant_id from users.api_keys where tenant = $1',
      [m.actor.tenant],
    );
    const ids: number[] = [];
    for (const r of rows)
      if (await merchantInScope(state, m.actor, Number(r.merchant_id))) ids.push(Number(r.merchant_id));
    return ids;
  }

  app.post(
    '/users/api-keys',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Create an API key (its secret is answered once)',
        body: ApiKeyCreateBody,
        response: { 201: ApiKeyCreated, ...errors },
      },
    },
    async (request, reply) => {
      const m = await keyManager(request, db, true);
      const body = request.body;
      const merchantId = body.merchant_id ?? Number(m.user.merchant_id);
      const expiresAt = body.expires_at ?? null;
      checkNewKey(m, merchantId, body.scopes, expiresAt);
      await requireMerchantInScope(state, m, merchantId);
      const made = await db.transaction(async (tx) => {
        const key = await createKey(tx, m, {
          merchantId,
          name: body.name.trim(),
          scopes: body.scopes,
          expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
          rotatedFrom: null,
        });
        await audit(tx, request, {
          action: 'api_key.create',
          detail: { key_id: key.id, merchant_id: merchantId, scopes: body.scopes, name: body.name.trim() },
        });
        return key;
      });
      const row = (await findKey(db, m.actor.tenant, made.id))!;
      return reply.status(201).send({ ...toApiKey(row), secret: made.secret });
    },
  );

  app.post(
    '/users/api-keys/:id/revoke',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Revoke an API key',
        params: ApiKeyIdParams,
        response: { 200: ApiKey, ...errors },
      },
    },
    async (request) => {
      const m = await keyManager(request, db, true);
      const row = await keyInScope(m, request.params.id);
      await db.transaction(async (tx) => {
        await revokeKey(tx, m.actor.tenant, row.id, m.user.id);
        await audit(tx, request, {
          action: 'api_key.revoke',
          detail: { key_id: row.id, merchant_id: Number(row.merchant_id) },
        });
      });
      await publishKeyChange(m.actor.tenant, row.id);
      return toApiKey((await findKey(db, m.actor.tenant, row.id))!);
    },
  );

  app.post(
    '/users/api-keys/:id/rotate',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Rotate an API key (a new key with the same scopes; the old one valid for a grace period)',
        params: ApiKeyIdParams,
        body: ApiKeyRotateBody,
        response: { 201: ApiKeyCreated, ...errors },
      },
    },
    async (request, reply) => {
      const m = await keyManager(request, db, true);
      const old = await keyInScope(m, request.params.id);
      const status = statusOf(old);
      if (status === 'revoked' || status === 'expired') throw conflict(M.revoked);
      checkNewKey(m, Number(old.merchant_id), old.scopes, null);
      const grace = request.body.grace_seconds;
      const made = await db.transaction(async (tx) => {
        const key = await createKey(tx, m, {
          merchantId: Number(old.merchant_id),
          name: old.name,
          scopes: old.scopes,
          expiresAt: old.expires_at === null ? null : new Date(old.expires_at).toISOString(),
          rotatedFrom: old.id,
        });
        await endWithGrace(tx, m.actor.tenant, old.id, grace, m.user.id);
        await audit(tx, request, {
          action: 'api_key.rotate',
          detail: {
            key_id: key.id,
            rotated_from: old.id,
            grace_seconds: grace,
            merchant_id: Number(old.merchant_id),
          },
        });
        return key;
      });
      await publishKeyChange(m.actor.tenant, old.id);
      const row = (await findKey(db, m.actor.tenant, made.id))!;
      return reply.status(201).send({ ...toApiKey(row), secret: made.secret });
    },
  );
}

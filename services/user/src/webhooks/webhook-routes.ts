import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ErrorResponse,
  Id,
  MessageResult,
  WEBHOOK_MAX_ENDPOINTS,
  WEBHOOK_MESSAGES,
  WEBHOOK_OWNER_ROLES,
  WebhookCreateBody,
  WebhookCreated,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookListQuery,
  WebhookPatchBody,
  WEBHOOK_TEST_EVENT,
  type SubscribedEventType,
  type WebhookKind,
  type WebhookPayload,
} from '@portal/contracts';
import { badRequest, conflict, forbidden, notFound } from '@portal/core';
import { audit } from '../lib/context';
import { loadActor } from '../users/access';
import { chatHostPolicy, checkChatUrl, eventsProblem, isChatKind } from './chat-destinations';
import { queueDelivery } from './delivery-jobs';
import { newSigningSecret, sealSecret } from './signing';
import { checkTarget, networkPolicy, WebhookTargetError } from './ssrf';
import {
  countEndpoints,
  deleteEndpoint,
  findEndpoint,
  insertDelivery,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  requeueDelivery,
  updateEndpoint,
  type EndpointKey,
} from './webhook-repository';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const EndpointId = Type.Object({ id: Id() });

/**
 * GET/POST/PATCH/DELETE /users/webhooks (issue 19): a merchant or partner
 * admin registers endpoints for its merchant; events of that merchant and
 * every merchant below it are delivered. The gateway's policy allows the
 * same two roles; read-only admins may look, not change.
 */
export async function webhookRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, env, contextSecret } = app.deps;
  const policy = networkPolicy(env);
  const chatHosts = chatHostPolicy(env);

  async function owner(request: FastifyRequest, write: boolean): Promise<EndpointKey & { userId: number }> {
    const actor = await loadActor(request, db);
    const user = actor.user;
    if (!user || !(WEBHOOK_OWNER_ROLES as readonly string[]).includes(user.role_name))
      throw forbidden(WEBHOOK_MESSAGES.notAllowed);
    if (write && (actor.readOnly || user.is_read_only))
      throw forbidden('Read-only users cannot change data.');
    return { tenant: actor.tenant, merchantId: Number(user.merchant_id), userId: user.id };
  }

  /** A chat destination's URL must be its tool's (https, its hosts), then every URL passes the address checks. */
  async function checkedUrl(kind: WebhookKind, raw: string): Promise<string> {
    try {
      if (isChatKind(kind)) checkChatUrl(chatHosts, kind, raw);
      return (await checkTarget(policy, raw)).url.toString();
    } catch (error) {
      if (error instanceof WebhookTargetError)
        throw badRequest(error.message, { fields: [{ field: 'url', message: error.message }] });
      throw error;
    }
  }

  function checkEvents(kind: WebhookKind, events: readonly SubscribedEventType[]) {
    const problem = eventsProblem(kind, events);
    if (problem) throw badRequest(problem, { fields: [{ field: 'events', message: problem }] });
  }

  app.get(
    '/users/webhooks',
    {
      schema: {
        tags: ['webhooks'],
        querystring: WebhookListQuery,
        response: { 200: WebhookEndpointList, ...errors },
      },
    },
    async (request) => {
      const key = await owner(request, false);
      const { start = 0, limit = 25 } = request.query;
      const total = await countEndpoints(db, key);
      const data = limit === 0 ? [] : await listEndpoints(db, key, limit, start);
      return { data, pagination: { total, limit, start } };
    },
  );

  app.post(
    '/users/webhooks',
    { schema: { tags: ['webhooks'], body: WebhookCreateBody, response: { 201: WebhookCreated, ...errors } } },
    async (request, reply) => {
      const key = await owner(request, true);
      const kind = request.body.kind ?? 'signed';
      checkEvents(kind, request.body.events);
      const url = await checkedUrl(kind, request.body.url);
      // Chat destinations sign nothing (the URL is their secret); the column keeps a sealed one all the same.
      const secret = newSigningSecret();
      const created = await db.transaction(async (tx) => {
        // Serialises registrations of one merchant so the cap holds under concurrent calls.
        await tx.query('select pg_advisory_xact_lock(hashtext($1))', [
          `webhooks:${key.tenant}:${key.merchantId}`,
        ]);
        if ((await countEndpoints(tx, key)) >= WEBHOOK_MAX_ENDPOINTS)
          throw conflict(WEBHOOK_MESSAGES.tooMany);
        const id = await insertEndpoint(
          tx,
          key,
          {
            kind,
            url,
            description: request.body.description?.trim() ?? '',
            events: request.body.events,
            secretEnc: sealSecret(contextSecret, secret),
            secretHint: isChatKind(kind) ? '' : secret.slice(-4),
          },
          key.userId,
        );
        await audit(tx, request, {
          action: 'webhook.create',
          detail: { id, kind, url, events: request.body.events },
        });
        return (await findEndpoint(tx, key, id))!;
      });
      return reply.status(201).send({ ...created, secret: isChatKind(kind) ? '' : secret });
    },
  );

  app.patch(
    '/users/webhooks/:id',
    {
      schema: {
        tags: ['webhooks'],
        params: EndpointId,
        body: WebhookPatchBody,
        response: { 200: WebhookEndpoint, ...errors },
      },
    },
    async (request) => {
      const key = await owner(request, true);
      const current = await findEndpoint(db, key, request.params.id);
      if (!current) throw notFound(WEBHOOK_MESSAGES.notFound);
      if (request.body.events) checkEvents(current.kind, request.body.events);
      const url =
        request.body.url === undefined ? undefined : await checkedUrl(current.kind, request.body.url);
      return db.transaction(async (tx) => {
        if (!(await findEndpoint(tx, key, request.params.id, true)))
          throw notFound(WEBHOOK_MESSAGES.notFound);
        const patch = { ...request.body, ...(url ? { url } : {}) };
        if (patch.description !== undefined) patch.description = patch.description.trim();
        await updateEndpoint(tx, request.params.id, patch);
        await audit(tx, request, { action: 'webhook.update', detail: { id: request.params.id, ...patch } });
        return (await findEndpoint(tx, key, request.params.id))!;
      });
    },
  );

  app.delete(
    '/users/webhooks/:id',
    { schema: { tags: ['webhooks'], params: EndpointId, response: { 200: MessageResult, ...errors } } },
    async (request) => {
      const key = await owner(request, true);
      await db.transaction(async (tx) => {
        if (!(await findEndpoint(tx, key, request.params.id, true)))
          throw notFound(WEBHOOK_MESSAGES.notFound);
        await deleteEndpoint(tx, request.params.id);
        await audit(tx, request, { action: 'webhook.delete', detail: { id: request.params.id } });
      });
      return { message: WEBHOOK_MESSAGES.deleted };
    },
  );

  app.get(
    '/users/webhooks/:id/deliveries',
    {
      schema: {
        tags: ['webhooks'],
        params: EndpointId,
        querystring: WebhookListQuery,
        response: { 200: WebhookDeliveryList, ...errors },
      },
    },
    async (request) => {
      const key = await owner(request, false);
      if (!(await findEndpoint(db, key, request.params.id))) throw notFound(WEBHOOK_MESSAGES.notFound);
      const { start = 0, limit = 25 } = request.query;
      const { data, total } = await listDeliveries(db, request.params.id, limit, start);
      return { data, pagination: { total, limit, start } };
    },
  );

  // A sample event to check an endpoint: signed and delivered like any other, typed WEBHOOK_TEST.
  app.post(
    '/users/webhooks/:id/test',
    { schema: { tags: ['webhooks'], params: EndpointId, response: { 202: MessageResult, ...errors } } },
    async (request, reply) => {
      const key = await owner(request, true);
      const tested = await db.transaction(async (tx) => {
        const endpoint = await findEndpoint(tx, key, request.params.id);
        if (!endpoint) throw notFound(WEBHOOK_MESSAGES.notFound);
        if (!endpoint.is_active) throw conflict('Enable the endpoint before sending a test event.');
        const payload: WebhookPayload = {
          id: randomUUID(),
          type: WEBHOOK_TEST_EVENT,
          created: new Date().toISOString(),
          tenant: key.tenant,
          merchant_id: key.merchantId,
          data: { endpoint_id: endpoint.id, message: 'A test event from the chargeback portal.' },
        };
        const deliveryId = await insertDelivery(tx, key.tenant, endpoint.id, payload);
        await queueDelivery(tx, key.tenant, deliveryId);
        await audit(tx, request, {
          action: 'webhook.test',
          detail: { id: endpoint.id, delivery_id: deliveryId },
        });
        return endpoint;
      });
      return reply.status(202).send({
        message: isChatKind(tested.kind) ? WEBHOOK_MESSAGES.chatTestQueued : WEBHOOK_MESSAGES.testQueued,
      });
    },
  );

  app.post(
    '/users/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags: ['webhooks'],
        params: Type.Object({ id: Id(), deliveryId: Id() }),
        response: { 202: MessageResult, ...errors },
      },
    },
    async (request, reply) => {
      const key = await owner(request, true);
      await db.transaction(async (tx) => {
        const endpoint = await findEndpoint(tx, key, request.params.id);
        if (!endpoint) throw notFound(WEBHOOK_MESSAGES.notFound);
        if (!endpoint.is_active) throw conflict('Enable the endpoint before redelivering.');
        if (!(await requeueDelivery(tx, endpoint.id, request.params.deliveryId)))
          throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
        await queueDelivery(tx, key.tenant, request.params.deliveryId);
        await audit(tx, request, {
          action: 'webhook.redeliver',
          detail: { id: endpoint.id, delivery_id: request.params.deliveryId },
        });
      });
      return reply.status(202).send({ message: WEBHOOK_MESSAGES.redelivered });
    },
  );
}

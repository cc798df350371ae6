import { Type } from '@sinclair/typebox';
import { MessageActionBody, PortalMessage, TrackingEventBody } from '@portal/contracts';
import { forbidden, notFound } from '@portal/core';
import { loadActor } from '../users/access';
import { Id, type UsersApp } from '../users/route-support';
import { messageExists, openMessages, recordTrackingEvent, saveMessageAction } from './message-repo';
import { errors, me, noContent } from './route-support';

/** In-app messages and the usage events the web app reports (spec 3 §2 Messages). */
export function messageRoutes(app: UsersApp) {
  const { db } = app.deps;

  // In-app messages: those for the caller's role not yet acted on; the web app shows the last applicable one.
  app.get(
    '/users/messages',
    {
      schema: {
        tags: ['messages'],
        response: { 200: Type.Object({ data: Type.Array(PortalMessage) }), ...errors },
      },
    },
    async (request) => {
      const actor = await loadActor(request, db);
      const user = me(actor);
      return { data: await openMessages(db, actor.tenant, user.role_name, user.id) };
    },
  );

  app.post(
    '/users/messages/:id/action',
    { schema: { tags: ['messages'], params: Id, body: MessageActionBody, response: noContent } },
    async (request, reply) => {
      const actor = await loadActor(request, db);
      const user = me(actor);
      if (!(await messageExists(db, actor.tenant, request.params.id))) throw notFound('Message not found.');
      await saveMessageAction(db, request.params.id, user.id, request.body.action);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/users/events/tracking',
    { schema: { tags: ['events'], body: TrackingEventBody, response: noContent } },
    async (request, reply) => {
      const ctx = request.ctx;
      if (ctx.kind === 'public') throw forbidden();
      await recordTrackingEvent(
        db,
        { tenant: ctx.tenant, userId: ctx.user_id, actorId: ctx.actor_id },
        request.body,
      );
      return reply.status(204).send(null);
    },
  );
}

import { Type } from '@sinclair/typebox';
import { BlockIpBody, LoginHistory, LoginHistoryQuery } from '@portal/contracts';
import { badRequest, forbidden, notFound } from '@portal/core';
import { audit, type UserServiceState } from '../lib/context';
import { loadActor, requireManage } from '../users/access';
import { Id, type UsersApp } from '../users/route-support';
import { blockIp, deleteBlockedIp, findBlockedIp, loginHistoryPage } from './login-history-repo';
import { errors, me, noContent, ownOrVisible, refuseReadOnly } from './route-support';

const IP = /^[0-9a-fA-F:.]{2,64}$/;

/** A user's login history, and the IP locks made from it (spec 3 §2). */
export function loginHistoryRoutes(app: UsersApp, state: UserServiceState) {
  const { db } = app.deps;

  app.get(
    '/users/users/:id/login-history',
    {
      schema: {
        tags: ['profile'],
        params: Id,
        querystring: LoginHistoryQuery,
        response: { 200: LoginHistory, ...errors },
      },
    },
    async (request) => {
      const actor = await loadActor(request, db);
      const target = await ownOrVisible(app, state, actor, request.params.id);
      const { start = 0, limit = 25, is_unique } = request.query;
      const page = await loginHistoryPage(db, actor.tenant, target.id, { unique: is_unique, limit, start });
      return { data: page.data, pagination: { total: page.total, limit, start } };
    },
  );

  // IP lock from the login history: blocks sign-ins to that account from the IP (see auth/flows.ts).
  app.post(
    '/users/blockip',
    {
      schema: {
        tags: ['profile'],
        body: BlockIpBody,
        response: { 200: Type.Object({ id: Type.Integer() }), ...errors },
      },
    },
    async (request) => {
      const actor = await loadActor(request, db);
      refuseReadOnly(actor);
      const ip = request.body.ip.trim();
      if (!IP.test(ip)) throw badRequest('A valid IP address is required.');
      const target = await ownOrVisible(app, state, actor, request.body.user_id ?? me(actor).id);
      if (actor.user?.id !== target.id) await requireManage(state, actor, target);
      const id = await db.transaction(async (tx) => {
        const blocked = await blockIp(tx, {
          tenant: actor.tenant,
          userId: target.id,
          ip,
          createdBy: actor.user?.id ?? null,
        });
        await audit(tx, request, { action: 'ip.block', targetUserId: target.id, detail: { ip } });
        return blocked;
      });
      return { id };
    },
  );

  app.delete(
    '/users/blockip/:id',
    { schema: { tags: ['profile'], params: Id, response: noContent } },
    async (request, reply) => {
      const actor = await loadActor(request, db);
      refuseReadOnly(actor);
      const block = await findBlockedIp(db, actor.tenant, request.params.id);
      if (!block) throw notFound('Blocked IP not found.');
      if (block.user_id === null) {
        if (actor.user && actor.user.role_name !== 'cb911_admin') throw forbidden();
      } else if (actor.user?.id !== block.user_id) {
        await requireManage(state, actor, await ownOrVisible(app, state, actor, block.user_id));
      }
      await db.transaction(async (tx) => {
        await deleteBlockedIp(tx, request.params.id);
        await audit(tx, request, {
          action: 'ip.unblock',
          targetUserId: block.user_id,
          detail: { ip: block.ip },
        });
      });
      return reply.status(204).send(null);
    },
  );
}

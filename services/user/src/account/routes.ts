import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  BannerQuery,
  BannerState,
  BlockIpBody,
  EmailBody,
  ErrorResponse,
  LoginHistory,
  LoginHistoryQuery,
  MessageActionBody,
  MessageResult,
  NotificationBody,
  NotificationSetting,
  PortalMessage,
  TrackingEventBody,
  USER_MESSAGES,
  Id as RowId,
} from '@portal/contracts';
import { badRequest, forbidden, notFound } from '@portal/core';
import { audit, type UserServiceState } from '../lib/context';
import { serviceLevelOf } from '../profile/merchants';
import { canSee, isProvider, loadActor, merchantOf, requireManage, type Actor } from '../users/access';
import { requireTarget, updateUser } from '../users/service';

const Id = Type.Object({ id: RowId() });
const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  502: ErrorResponse,
};
const noContent = { 204: Type.Null(), ...errors };
const IP = /^[0-9a-fA-F:.]{2,64}$/;

/** Profile, login history, notifications, messages, events, banner and audit (spec 3 §2, §7). */
export async function accountRoutes(base: FastifyInstance, state: UserServiceState) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;
  const actorOf = (request: FastifyRequest) => loadActor(request, db);
  const me = (actor: Actor) => {
    if (!actor.user) throw forbidden('This call needs a signed-in user.');
    return actor.user;
  };
  /** Oneself, or a user the actor may see (provider staff and admins reading their users' history). */
  const ownOrVisible = async (actor: Actor, id: number) => {
    const target = await requireTarget(app, actor, id);
    if (actor.user?.id !== target.id && !(await canSee(state, actor, target)))
      throw notFound('User not found.');
    return target;
  };

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
      const actor = await actorOf(request);
      const target = await ownOrVisible(actor, request.params.id);
      const { start = 0, limit = 25, is_unique } = request.query;
      // Unique logins: the latest attempt per IP.
      const source = is_unique
        ? `(select distinct on (ip) * from users.login_history where user_id = $1 order by ip, created_at desc, id desc)`
        : `users.login_history`;
      const count = await db.query<{ n: number }>(
        `select count(*)::int as n from ${source} h where h.user_id = $1`,
        [target.id],
      );
      const { rows } = await db.query<{
        id: number;
        ip: string;
        created_at: Date | string;
        success: boolean;
        blocked_id: number | null;
      }>(
        `select h.id, h.ip, h.created_at, h.success, b.id as blocked_id
           from ${source} h
           left join users.blocked_ips b on b.tenant = $2 and b.user_id = h.user_id and b.ip = h.ip
          where h.user_id = $1
          order by h.created_at desc, h.id desc limit $3 offset $4`,
        [target.id, actor.tenant, limit, start],
      );
      return {
        data: rows.map((r) => ({
          id: r.id,
          ip: r.ip,
          timestamp: new Date(r.created_at).toISOString(),
          is_blocked: r.blocked_id !== null,
          blocked_id: r.blocked_id,
          success: r.success,
        })),
        pagination: { total: count.rows[0]?.n ?? 0, limit, start },
      };
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
      const actor = await actorOf(request);
      if (actor.readOnly || actor.user?.is_read_only) throw forbidden('Read-only users cannot change data.');
      const ip = request.body.ip.trim();
      if (!IP.test(ip)) throw badRequest('A valid IP address is required.');
      const target = await ownOrVisible(actor, request.body.user_id ?? me(actor).id);
      if (actor.user?.id !== target.id) await requireManage(state, actor, target);
      const id = await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: number }>(
          `insert into users.blocked_ips (tenant, user_id, ip, created_by) values ($1, $2, $3, $4)
         on conflict (tenant, coalesce(user_id, 0), ip) do update set ip = excluded.ip returning id`,
          [actor.tenant, target.id, ip, actor.user?.id ?? null],
        );
        await audit(tx, request, { action: 'ip.block', targetUserId: target.id, detail: { ip } });
        return rows[0]!.id;
      });
      return { id };
    },
  );

  app.delete(
    '/users/blockip/:id',
    { schema: { tags: ['profile'], params: Id, response: noContent } },
    async (request, reply) => {
      const actor = await actorOf(request);
      if (actor.readOnly || actor.user?.is_read_only) throw forbidden('Read-only users cannot change data.');
      const { rows } = await db.query<{ user_id: number | null; ip: string }>(
        `select user_id, ip from users.blocked_ips where tenant = $1 and id = $2`,
        [actor.tenant, request.params.id],
      );
      const block = rows[0];
      if (!block) throw notFound('Blocked IP not found.');
      if (block.user_id === null) {
        if (actor.user && actor.user.role_name !== 'cb911_admin') throw forbidden();
      } else if (actor.user?.id !== block.user_id) {
        await requireManage(state, actor, await ownOrVisible(actor, block.user_id));
      }
      await db.transaction(async (tx) => {
        await tx.query(`delete from users.blocked_ips where id = $1`, [request.params.id]);
        await audit(tx, request, {
          action: 'ip.unblock',
          targetUserId: block.user_id,
          detail: { ip: block.ip },
        });
      });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/users/user/:id/email-notification',
    {
      schema: {
        tags: ['profile'],
        params: Id,
        response: { 200: Type.Object({ data: Type.Array(NotificationSetting) }), ...errors },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const target = await ownOrVisible(actor, request.params.id);
      const { rows } = await db.query<{ id: number; name: string; alias: string; is_enabled: boolean }>(
        `select n.id, n.name, n.alias, coalesce(un.is_enabled, n.default_enabled) as is_enabled
           from users.notification_types n left join users.user_notifications un on un.notification_id = n.id and un.user_id = $1
          order by n.id`,
        [target.id],
      );
      return { data: rows };
    },
  );

  app.put(
    '/users/user/:id/email-notification/:settingId',
    {
      schema: {
        tags: ['profile'],
        params: Type.Object({ id: RowId(), settingId: RowId() }),
        body: NotificationBody,
        response: { 200: MessageResult, ...errors },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const target = await ownOrVisible(actor, request.params.id);
      if (actor.user?.id !== target.id) await requireManage(state, actor, target);
      // Notification preferences are one's own choice: allowed to read-only users too.
      const known = await db.query(`select 1 from users.notification_types where id = $1`, [
        request.params.settingId,
      ]);
      if (!known.rows.length) throw badRequest('Unknown notification setting.');
      await db.query(
        `insert into users.user_notifications (user_id, notification_id, is_enabled) values ($1, $2, $3)
         on conflict (user_id, notification_id) do update set is_enabled = $3, updated_at = now()`,
        [target.id, request.params.settingId, request.body.is_enabled],
      );
      return { message: USER_MESSAGES.notificationSaved };
    },
  );

  // Email change of one's own profile (spec 3 Profile); admins change others' email with PATCH /users/users/{id}.
  app.post(
    '/users/users/:id/email',
    {
      schema: { tags: ['profile'], params: Id, body: EmailBody, response: { 200: MessageResult, ...errors } },
    },
    async (request) => {
      const actor = await actorOf(request);
      const target = await ownOrVisible(actor, request.params.id);
      const email = request.body.email.trim();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw badRequest(USER_MESSAGES.emailInvalid);
      if (target.is_federated) throw forbidden(USER_MESSAGES.federatedEmail);
      if (
        request.ctx.actor_id !== null &&
        request.ctx.actor_id !== request.ctx.user_id &&
        actor.user?.id === target.id
      ) {
        throw forbidden('This is not allowed while acting as another user.');
      }
      await updateUser(app, state, request, actor, target, { email });
      return { message: USER_MESSAGES.emailSaved };
    },
  );

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
      const actor = await actorOf(request);
      const user = me(actor);
      const { rows } = await db.query<{
        id: number;
        header: string;
        sub_header: string;
        message: string;
        show_on: string[];
        actions: unknown;
      }>(
        `select m.id, m.header, m.sub_header, m.message, m.show_on, m.actions from users.messages m
        where m.tenant = $1 and m.is_active and (m.roles is null or $2 = any(m.roles))
          and not exists (select 1 from users.message_actions a where a.message_id = m.id and a.user_id = $3)
        order by m.id`,
        [actor.tenant, user.role_name, user.id],
      );
      return {
        data: rows.map((r) => ({
          ...r,
          actions: (typeof r.actions === 'string' ? JSON.parse(r.actions) : r.actions) as never,
        })),
      };
    },
  );

  app.post(
    '/users/messages/:id/action',
    { schema: { tags: ['messages'], params: Id, body: MessageActionBody, response: noContent } },
    async (request, reply) => {
      const actor = await actorOf(request);
      const user = me(actor);
      const found = await db.query(`select 1 from users.messages where tenant = $1 and id = $2`, [
        actor.tenant,
        request.params.id,
      ]);
      if (!found.rows.length) throw notFound('Message not found.');
      await db.query(
        `insert into users.message_actions (message_id, user_id, action) values ($1, $2, $3)
         on conflict (message_id, user_id) do update set action = $3, created_at = now()`,
        [request.params.id, user.id, request.body.action],
      );
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/users/events/tracking',
    { schema: { tags: ['events'], body: TrackingEventBody, response: noContent } },
    async (request, reply) => {
      const ctx = request.ctx;
      if (ctx.kind === 'public') throw forbidden();
      const b = request.body;
      await db.query(
        `insert into users.events (tenant, user_id, actor_id, key, case_id, event_name, action, message) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          ctx.tenant,
          ctx.user_id,
          ctx.actor_id,
          b.key,
          b.case_id ?? null,
          b.event_name,
          b.action ?? null,
          b.message ?? null,
        ],
      );
      return reply.status(204).send(null);
    },
  );

  // Pro-service banner: offered to users of merchants below Pro service, until they close it.
  app.get(
    '/users/pro-service/banner',
    { schema: { tags: ['banner'], querystring: BannerQuery, response: { 200: BannerState, ...errors } } },
    async (request) => {
      const actor = await actorOf(request);
      const user = me(actor);
      const page = request.query.page;
      const closed = await db.query(
        `select 1 from users.banner_dismissals where user_id = $1 and page = $2`,
        [user.id, page],
      );
      const level = serviceLevelOf(await merchantOf(state, actor, user.merchant_id));
      return {
        page,
        show: !closed.rows.length && !isProvider(actor) && level !== 5 && level !== 3,
        title: 'Upgrade to Pro Service',
        message:
          'Let our dispute experts fight your chargebacks for you. Contact your account manager to upgrade to Pro Service.',
      };
    },
  );

  app.post(
    '/users/pro-service/banner/close',
    { schema: { tags: ['banner'], body: BannerQuery, response: noContent } },
    async (request, reply) => {
      const actor = await actorOf(request);
      await db.query(
        `insert into users.banner_dismissals (user_id, page) values ($1, $2) on conflict (user_id, page) do update set closed_at = now()`,
        [me(actor).id, request.body.page],
      );
      return reply.status(204).send(null);
    },
  );
}

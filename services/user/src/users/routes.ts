import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import {
  CreateUserBody,
  ErrorResponse,
  isGrantableTo,
  mayGrantResource,
  SITE_PERMISSION_NOT_GRANTABLE,
  MailedExportStarted,
  MessageResult,
  MidPermissions,
  ResourceBody,
  ROLES,
  RoleRef,
  SitePermission,
  UpdateUserBody,
  USER_MESSAGES,
  UserItem,
  UserList,
  UserListQuery,
  type RoleName,
  Id as RowId,
  Text,
} from '@portal/contracts';
import { badRequest, forbidden, notFound } from '@portal/core';
import { exportIsMailed } from '@portal/exports';
import { audit, publishUserChange, type UserServiceState } from '../lib/context';
import {
  canSee,
  inSubtree,
  isProvider,
  loadActor,
  merchantOf,
  requireImpersonate,
  requireManage,
  rolesForMerchant,
  assignableRoles,
  type Actor,
} from './access';
import { usersCsvStream, usersXlsxStream } from './export';
import { mailUsersExport } from './mailed-export';
import {
  countUsers,
  listUserRows,
  toUserItem,
  userItemRow,
  userMerchantIds,
  userRowsSql,
  type UserFilter,
  type UserItemRow,
} from './queries';
import { findUserById, findUserByUsername } from './repository';
import { permissionsOf } from '../profile/profile';
import { createUser, refuseSelf, requireTarget, resetUser, updateUser } from './service';

const Id = Type.Object({ id: RowId() });
const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  502: ErrorResponse,
};
const ExportQuery = Type.Composite([
  UserListQuery,
  Type.Object({ export_type: Type.Optional(Type.Union([Type.Literal('page'), Type.Literal('all')])) }),
]);
const EXPORT_BATCH = 2000;

/** The users a caller may list, as a SQL filter (scope enforced here as well as at the gateway). */
async function scopeFilter(
  app: FastifyInstance,
  state: UserServiceState,
  actor: Actor,
  q: Static<typeof UserListQuery>,
): Promise<UserFilter> {
  const filter: UserFilter = {
    tenant: actor.tenant,
    merchantIds: null,
    roleId: q.role,
    statusId: q.status_id,
    search: q.search,
  };
  if (actor.user && actor.user.role_name === 'merchant_user') filter.onlyUserId = actor.user.id;
  const root = q.merchant_id;
  if (isProvider(actor) && root === undefined) return filter;
  const candidates = await userMerchantIds(app.deps.db, actor.tenant);
  const ids: number[] = [];
  for (const id of candidates) {
    const visible = isProvider(actor) || (await inSubtree(state, actor, actor.user!.merchant_id, id));
    // merchant_id selects that merchant's users (spec 1 §7: the dashboard's users tile).
    if (visible && (root === undefined || id === root)) ids.push(id);
  }
  filter.merchantIds = ids;
  return filter;
}

async function withNames(state: UserServiceState, actor: Actor, rows: UserItemRow[]): Promise<UserItem[]> {
  // A case-service outage leaves the company name empty rather than failing the grid.
  return Promise.all(
    rows.map(async (r) =>
      toUserItem(
        r,
        await merchantOf(state, actor, r.merchant_id).then(
          (m) => m.business_name,
          () => null,
        ),
      ),
    ),
  );
}

async function visibleTarget(app: FastifyInstance, state: UserServiceState, actor: Actor, id: number) {
  const target = await requireTarget(app, actor, id);
  // Out of scope looks like absent: ids of other merchants' users are not confirmed.
  if (!(await canSee(state, actor, target))) throw notFound('User not found.');
  return target;
}

export async function userRoutesAdmin(base: FastifyInstance, state: UserServiceState) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;
  const actorOf = (request: FastifyRequest) => loadActor(request, db);

  app.get(
    '/users/users',
    { schema: { tags: ['users'], querystring: UserListQuery, response: { 200: UserList, ...errors } } },
    async (request) => {
      const actor = await actorOf(request);
      const q = request.query;
      const filter = await scopeFilter(app, state, actor, q);
      const start = q.start ?? 0;
      const limit = q.limit ?? 25;
      const total = await countUsers(db, filter);
      const rows =
        limit === 0
          ? []
          : await listUserRows(db, filter, { start, limit, sortBy: q.sort_by, sortOrder: q.sort_order });
      return { data: await withNames(state, actor, rows), pagination: { total, limit, start } };
    },
  );

  // Exports (spec 3 §2): the grid's filters and sort; all rows (export_type=all, default) or the page, streamed.
  for (const format of ['csv', 'xlsx'] as const) {
    app.get(
      `/users/users.${format}`,
      {
        schema: {
          tags: ['users'],
          querystring: ExportQuery,
          response: { 202: MailedExportStarted, ...errors },
        },
      },
      async (request, reply) => {
        const actor = await actorOf(request);
        const q = request.query;
        const filter = await scopeFilter(app, state, actor, q);
        const sort = { sortBy: q.sort_by, sortOrder: q.sort_order };
        // All rows above EXPORT_MAIL_THRESHOLD_ROWS: 202 and a mailed link (@portal/exports), to the
        // person at the keyboard (the actor while impersonating); system calls always stream.
        const recipient = request.ctx.actor_id ?? request.ctx.user_id;
        if (
          recipient !== null &&
          (await exportIsMailed(app.deps.env, q.export_type, () => countUsers(db, filter)))
        )
          return reply.code(202).send(await mailUsersExport(db, { format, filter, sort, recipient }));
        async function* batches(): AsyncIterable<UserItem[]> {
          if (q.export_type === 'page') {
            const page = { start: q.start ?? 0, limit: Math.min(q.limit ?? 25, 1000), ...sort };
            yield withNames(state, actor, await listUserRows(db, filter, page));
            return;
          }
          const { sql, params } = userRowsSql(filter, sort);
          for await (const rows of db.stream<UserItemRow>(sql, params, EXPORT_BATCH))
            yield withNames(state, actor, rows);
        }
        const stamp = new Date().toISOString().slice(0, 10);
        reply.header('content-disposition', `attachment; filename="users-${stamp}.${format}"`);
        // A file answer (200) is a stream, which the typed reply (202 JSON, errors) does not describe.
        const file = reply as unknown as FastifyReply;
        if (format === 'csv') return file.type('text/csv; charset=utf-8').send(usersCsvStream(batches()));
        return file
          .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .send(usersXlsxStream(batches(), (err) => request.log.error({ err }, 'users xlsx export failed')));
      },
    );
  }

  app.get(
    '/users/users/:id',
    { schema: { tags: ['users'], params: Id, response: { 200: UserItem, ...errors } } },
    async (request) => {
      const actor = await actorOf(request);
      const target = await visibleTarget(app, state, actor, request.params.id);
      const row = (await userItemRow(db, actor.tenant, target.id))!;
      return (await withNames(state, actor, [row]))[0]!;
    },
  );

  // 'Login As' check for the gateway (design §4 step 4), asked with the actor's own context.
  app.get(
    '/users/users/:id/impersonation',
    {
      schema: {
        tags: ['users'],
        params: Id,
        response: { 200: Type.Object({ allowed: Type.Boolean() }), ...errors },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const target = await visibleTarget(app, state, actor, request.params.id);
      await requireImpersonate(state, actor, target);
      return { allowed: true };
    },
  );

  app.post(
    '/users/users',
    { schema: { tags: ['users'], body: CreateUserBody, response: { 201: UserItem, ...errors } } },
    async (request, reply) => {
      const actor = await actorOf(request);
      const id = await createUser(app, state, request, actor, request.body);
      const row = (await userItemRow(db, actor.tenant, id))!;
      return reply.status(201).send((await withNames(state, actor, [row]))[0]!);
    },
  );

  app.patch(
    '/users/users/:id',
    { schema: { tags: ['users'], params: Id, body: UpdateUserBody, response: { 200: UserItem, ...errors } } },
    async (request) => {
      const actor = await actorOf(request);
      const target = await visibleTarget(app, state, actor, request.params.id);
      await updateUser(app, state, request, actor, target, request.body);
      const row = (await userItemRow(db, actor.tenant, target.id))!;
      return (await withNames(state, actor, [row]))[0]!;
    },
  );

  for (const [action, status, message] of [
    ['lock', 6, USER_MESSAGES.locked],
    ['enable', 1, USER_MESSAGES.unlocked],
  ] as const) {
    app.post(
      `/users/users/:id/${action}`,
      { schema: { tags: ['users'], params: Id, response: { 200: MessageResult, ...errors } } },
      async (request) => {
        const actor = await actorOf(request);
        const target = await visibleTarget(app, state, actor, request.params.id);
        refuseSelf(actor, target);
        await updateUser(app, state, request, actor, target, { status });
        return { message };
      },
    );
  }

  app.post(
    '/users/pass',
    {
      schema: {
        tags: ['users'],
        body: Type.Object({ username: Text({ maxLength: 128 }) }),
        response: { 200: MessageResult, ...errors },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const found = await findUserByUsername(db, actor.tenant, request.body.username.trim());
      if (!found) throw notFound('User not found.');
      const target = await visibleTarget(app, state, actor, found.id);
      await resetUser(app, state, request, actor, target);
      return { message: `Successfully reset user: ${target.fname} ${target.lname}`.trim() };
    },
  );

  app.get(
    '/users/roles',
    {
      schema: {
        tags: ['users'],
        querystring: Type.Object({
          merchant_id: Type.Optional(RowId()),
          restricted: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Type.Object({ data: Type.Array(RoleRef) }), ...errors },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      let names: readonly RoleName[] = assignableRoles(actor);
      if (request.query.merchant_id !== undefined) {
        const merchant = await merchantOf(state, actor, request.query.merchant_id);
        if (!isProvider(actor) && !(await inSubtree(state, actor, actor.user!.merchant_id, merchant.id)))
          throw forbidden();
        names = rolesForMerchant(actor, merchant);
      }
      // 'Assignable roles restricted to admin users': roles 8 and 9 (spec 3 §5).
      if (request.query.restricted) names = names.filter((n) => n === 'cb911_manager' || n === 'cb911_agent');
      const { rows } = await db.query<{ id: number; name: string; label: string }>(
        `select id, name, label from users.roles where name = any($1::text[]) order by id`,
        [names],
      );
      return { data: rows.map((r) => ({ id: r.id, name: r.label, alias: r.name })) };
    },
  );

  // Site permissions (spec 3 §2): not for oneself, not for role id 1.
  app.get(
    '/users/user/:id/site-permissions',
    {
      schema: {
        tags: ['users'],
        params: Id,
        response: { 200: Type.Object({ data: Type.Array(SitePermission) }), ...errors },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const target = await visibleTarget(app, state, actor, request.params.id);
      const { rows } = await db.query<{ id: number; name: string; alias: string; checked: boolean }>(
        `select r.id, r.name, r.alias,
                coalesce(ur.is_allowed, rr.resource_id is not null) as checked
           from users.resources r
           left join users.role_resources rr on rr.resource_id = r.id and rr.role_id = $2
           left join users.user_resources ur on ur.resource_id = r.id and ur.user_id = $1
          order by r.id`,
        [target.id, target.role_id],
      );
      return {
        data: rows.map((r) => ({
          id: r.id,
          name: r.name,
          alias: r.alias,
          is_active: r.checked,
          isChecked: r.checked,
        })),
      };
    },
  );

  /** The actor's effective resources (and the real actor's too while impersonating) allow this grant. */
  const mayGrant = async (request: FastifyRequest, actor: Actor, targetRole: string, alias: string) => {
    if (!isGrantableTo(targetRole, alias)) return false;
    if (actor.user === null) return true;
    const holders = [actor.user];
    const realId = request.ctx.actor_id;
    if (realId !== null && realId !== actor.user.id) {
      const real = await findUserById(db, actor.tenant, realId);
      if (!real) return false;
      holders.push(real);
    }
    for (const u of holders) {
      const holds = (await permissionsOf(db, u.id, u.role_id)).resources.map((r) => r.alias);
      if (!mayGrantResource(holds, targetRole, alias)) return false;
    }
    return true;
  };

  const setResource = async (
    request: FastifyRequest,
    userId: number,
    resourceId: number,
    allowed: boolean,
  ) => {
    const actor = await actorOf(request);
    const target = await visibleTarget(app, state, actor, userId);
    if (actor.user?.id === target.id || target.role_id === ROLES.cb911_admin)
      throw forbidden(USER_MESSAGES.sitePermissionProtected);
    await requireManage(state, actor, target);
    const { rows } = await db.query<{ alias: string; by_role: boolean }>(
      `select r.alias, exists (select 1 from users.role_resources where role_id = $2 and resource_id = r.id) as by_role from users.resources r where r.id = $1`,
      [resourceId, target.role_id],
    );
    if (!rows[0]) throw badRequest('Unknown site permission.');
    // Granting (issue 20 item 4): only what the actor holds, and only within the target role's allow-list.
    if (allowed && !(await mayGrant(request, actor, target.role_name, rows[0].alias)))
      throw forbidden(SITE_PERMISSION_NOT_GRANTABLE);
    await db.transaction(async (tx) => {
      // Only differences from the role are stored: re-checking a role default removes the override.
      if (rows[0]!.by_role === allowed)
        await tx.query(`delete from users.user_resources where user_id = $1 and resource_id = $2`, [
          target.id,
          resourceId,
        ]);
      else
        await tx.query(
          `insert into users.user_resources (user_id, resource_id, is_allowed, updated_by) values ($1, $2, $3, $4)
           on conflict (user_id, resource_id) do update set is_allowed = $3, updated_by = $4, updated_at = now()`,
          [target.id, resourceId, allowed, actor.user?.id ?? null],
        );
      await audit(tx, request, {
        action: 'user.site_permission',
        targetUserId: target.id,
        detail: { resource_id: resourceId, is_allowed: allowed },
      });
    });
    await publishUserChange(app, actor.tenant, target.id);
    return { message: USER_MESSAGES.sitePermissionSaved };
  };

  app.post(
    '/users/:id/resources',
    {
      schema: {
        tags: ['users'],
        params: Id,
        body: ResourceBody,
        response: { 200: MessageResult, ...errors },
      },
    },
    async (request) =>
      setResource(request, request.params.id, request.body.resource_id, request.body.is_allowed),
  );
  // Spec 3 §7: 'PUT or POST /users/{id}/resources/{resource}'.
  app.route({
    method: ['PUT', 'POST'],
    url: '/users/:id/resources/:resource',
    schema: {
      tags: ['users'],
      params: Type.Object({ id: RowId(), resource: RowId() }),
      body: Type.Object({ is_allowed: Type.Boolean() }),
      response: { 200: MessageResult, ...errors },
    },
    handler: async (request) =>
      setResource(request, request.params.id, request.params.resource, request.body.is_allowed),
  });
  app.delete(
    '/users/:id/resources/:resourceId',
    {
      schema: {
        tags: ['users'],
        params: Type.Object({ id: RowId(), resourceId: RowId() }),
        response: { 200: MessageResult, ...errors },
      },
    },
    async (request) => setResource(request, request.params.id, request.params.resourceId, false),
  );

  // MID permissions: no allowed MID = every MID in scope; excluded MIDs are removed from it.
  app.get(
    '/users/users/:id/mids',
    { schema: { tags: ['users'], params: Id, response: { 200: MidPermissions, ...errors } } },
    async (request) => {
      const actor = await actorOf(request);
      const target = await visibleTarget(app, state, actor, request.params.id);
      const row = (await userItemRow(db, actor.tenant, target.id))!;
      return { mids: row.mids_allowed, exclude_mids: row.mids_excluded };
    },
  );
  app.put(
    '/users/users/:id/mids',
    {
      schema: {
        tags: ['users'],
        params: Id,
        body: MidPermissions,
        response: { 200: MessageResult, ...errors },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const target = await visibleTarget(app, state, actor, request.params.id);
      refuseSelf(actor, target);
      await requireManage(state, actor, target);
      const mids = [...new Set(request.body.mids.map((m) => m.trim()))];
      const excluded = [...new Set(request.body.exclude_mids.map((m) => m.trim()))];
      if (mids.some((m) => !m) || excluded.some((m) => !m)) throw badRequest('A MID cannot be empty.');
      if (mids.some((m) => excluded.includes(m)))
        throw badRequest('A MID cannot be both allowed and excluded.');
      await db.transaction(async (tx) => {
        await tx.query(`delete from users.user_mids where user_id = $1`, [target.id]);
        await tx.query(
          `insert into users.user_mids (user_id, mid, is_excluded)
           select $1::bigint, m, false from unnest($2::text[]) m union all select $1::bigint, m, true from unnest($3::text[]) m`,
          [target.id, mids, excluded],
        );
        await audit(tx, request, {
          action: 'user.mid_permissions',
          targetUserId: target.id,
          detail: { mids, exclude_mids: excluded },
        });
      });
      await publishUserChange(app, actor.tenant, target.id);
      return { message: USER_MESSAGES.midsSaved };
    },
  );
}

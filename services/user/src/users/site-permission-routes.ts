import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  Id as RowId,
  isGrantableTo,
  mayGrantResource,
  MessageResult,
  ResourceBody,
  ROLES,
  SITE_PERMISSION_NOT_GRANTABLE,
  SitePermissionList,
  USER_MESSAGES,
} from '@portal/contracts';
import { badRequest, forbidden } from '@portal/core';
import { permissionsOf } from '../profile/profile';
import { audit, publishUserChange, type UserServiceState } from '../lib/context';
import { requireManage, type Actor } from './access';
import { findUserById } from './repository';
import { actorAndTarget, errors, Id, type UsersApp } from './route-support';

/**
 * Site permissions (spec 3 §2, §7): a user's resources as the role gives them
 * with the user's own overrides; not for oneself, not for role id 1.
 */
export function sitePermissionRoutes(app: UsersApp, state: UserServiceState) {
  const { db } = app.deps;

  app.get(
    '/users/user/:id/site-permissions',
    {
      schema: {
        tags: ['users'],
        params: Id,
        response: { 200: SitePermissionList, ...errors },
      },
    },
    async (request) => {
      const { target } = await actorAndTarget(app, state, request, request.params.id);
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
    const { actor, target } = await actorAndTarget(app, state, request, userId);
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
}

import { Type } from '@sinclair/typebox';
import { Id as RowId, RoleList, type RoleName } from '@portal/contracts';
import { forbidden } from '@portal/core';
import type { UserServiceState } from '../lib/context';
import { assignableRoles, inSubtree, isProvider, loadActor, merchantOf, rolesForMerchant } from './access';
import { errors, type UsersApp } from './route-support';

/** GET /users/roles: the roles the caller may assign, for one merchant when named. */
export function roleRoutes(app: UsersApp, state: UserServiceState) {
  const { db } = app.deps;
  app.get(
    '/users/roles',
    {
      schema: {
        tags: ['users'],
        querystring: Type.Object({
          merchant_id: Type.Optional(RowId()),
          restricted: Type.Optional(Type.Boolean()),
        }),
        response: { 200: RoleList, ...errors },
      },
    },
    async (request) => {
      const actor = await loadActor(request, db);
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
}

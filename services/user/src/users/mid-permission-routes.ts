import { MessageResult, MidPermissions, USER_MESSAGES } from '@portal/contracts';
import { badRequest } from '@portal/core';
import { audit, publishUserChange, type UserServiceState } from '../lib/context';
import { requireManage } from './access';
import { userItemRow } from './queries';
import { actorAndTarget, errors, Id, type UsersApp } from './route-support';
import { refuseSelf } from './service';

/** MID permissions of a user: no allowed MID = every MID in scope; excluded MIDs are removed from it. */
export function midPermissionRoutes(app: UsersApp, state: UserServiceState) {
  const { db } = app.deps;
  app.get(
    '/users/users/:id/mids',
    { schema: { tags: ['users'], params: Id, response: { 200: MidPermissions, ...errors } } },
    async (request) => {
      const { actor, target } = await actorAndTarget(app, state, request, request.params.id);
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
      const { actor, target } = await actorAndTarget(app, state, request, request.params.id);
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

import { UserList, UserListQuery } from '@portal/contracts';
import type { UserServiceState } from '../lib/context';
import { loadActor } from './access';
import { countUsers, listUserRows } from './queries';
import { errors, scopeFilter, withNames, type UsersApp } from './route-support';

/** GET /users/users: the users grid, in the caller's scope, paged and sorted on the server. */
export function listUsersRoute(app: UsersApp, state: UserServiceState) {
  const { db } = app.deps;
  app.get(
    '/users/users',
    { schema: { tags: ['users'], querystring: UserListQuery, response: { 200: UserList, ...errors } } },
    async (request) => {
      const actor = await loadActor(request, db);
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
}

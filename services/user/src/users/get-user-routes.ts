import { Type } from '@sinclair/typebox';
import { UserItem } from '@portal/contracts';
import type { UserServiceState } from '../lib/context';
import { requireImpersonate } from './access';
import { userItemRow } from './queries';
import { actorAndTarget, errors, Id, withNames, type UsersApp } from './route-support';

/** GET /users/users/{id}, and the 'Login As' check the gateway asks for (design §4 step 4). */
export function getUserRoutes(app: UsersApp, state: UserServiceState) {
  const { db } = app.deps;
  app.get(
    '/users/users/:id',
    { schema: { tags: ['users'], params: Id, response: { 200: UserItem, ...errors } } },
    async (request) => {
      const { actor, target } = await actorAndTarget(app, state, request, request.params.id);
      const row = (await userItemRow(db, actor.tenant, target.id))!;
      return (await withNames(state, actor, [row]))[0]!;
    },
  );

  // Asked with the actor's own context.
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
      const { actor, target } = await actorAndTarget(app, state, request, request.params.id);
      await requireImpersonate(state, actor, target);
      return { allowed: true };
    },
  );
}

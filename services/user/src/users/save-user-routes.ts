import { CreateUserBody, UpdateUserBody, UserItem } from '@portal/contracts';
import type { UserServiceState } from '../lib/context';
import { loadActor } from './access';
import { userItemRow } from './queries';
import { actorAndTarget, errors, Id, withNames, type UsersApp } from './route-support';
import { createUser, updateUser } from './service';

/** POST /users/users (create) and PATCH /users/users/{id} (update); the rules live in service.ts. */
export function saveUserRoutes(app: UsersApp, state: UserServiceState) {
  const { db } = app.deps;
  app.post(
    '/users/users',
    { schema: { tags: ['users'], body: CreateUserBody, response: { 201: UserItem, ...errors } } },
    async (request, reply) => {
      const actor = await loadActor(request, db);
      const id = await createUser(app, state, request, actor, request.body);
      const row = (await userItemRow(db, actor.tenant, id))!;
      return reply.status(201).send((await withNames(state, actor, [row]))[0]!);
    },
  );

  app.patch(
    '/users/users/:id',
    { schema: { tags: ['users'], params: Id, body: UpdateUserBody, response: { 200: UserItem, ...errors } } },
    async (request) => {
      const { actor, target } = await actorAndTarget(app, state, request, request.params.id);
      await updateUser(app, state, request, actor, target, request.body);
      const row = (await userItemRow(db, actor.tenant, target.id))!;
      return (await withNames(state, actor, [row]))[0]!;
    },
  );
}

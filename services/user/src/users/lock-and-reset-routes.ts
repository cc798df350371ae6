import { Type } from '@sinclair/typebox';
import { MessageResult, Text, USER_MESSAGES } from '@portal/contracts';
import { notFound } from '@portal/core';
import type { UserServiceState } from '../lib/context';
import { loadActor } from './access';
import { findUserByUsername } from './repository';
import { actorAndTarget, errors, Id, visibleTarget, type UsersApp } from './route-support';
import { refuseSelf, resetUser, updateUser } from './service';

/** POST /users/users/{id}/lock and /enable (never oneself), POST /users/pass (password reset by username). */
export function lockAndResetRoutes(app: UsersApp, state: UserServiceState) {
  const { db } = app.deps;
  for (const [action, status, message] of [
    ['lock', 6, USER_MESSAGES.locked],
    ['enable', 1, USER_MESSAGES.unlocked],
  ] as const) {
    app.post(
      `/users/users/:id/${action}`,
      { schema: { tags: ['users'], params: Id, response: { 200: MessageResult, ...errors } } },
      async (request) => {
        const { actor, target } = await actorAndTarget(app, state, request, request.params.id);
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
      const actor = await loadActor(request, db);
      const found = await findUserByUsername(db, actor.tenant, request.body.username.trim());
      if (!found) throw notFound('User not found.');
      const target = await visibleTarget(app, state, actor, found.id);
      await resetUser(app, state, request, actor, target);
      return { message: `Successfully reset user: ${target.fname} ${target.lname}`.trim() };
    },
  );
}

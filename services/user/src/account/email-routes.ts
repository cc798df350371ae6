import { EmailBody, MessageResult, USER_MESSAGES } from '@portal/contracts';
import { badRequest, forbidden } from '@portal/core';
import { refuseWhileImpersonating, type UserServiceState } from '../lib/context';
import { loadActor } from '../users/access';
import { Id, type UsersApp } from '../users/route-support';
import { updateUser } from '../users/service';
import { errors, ownOrVisible } from './route-support';

/** Email change of one's own profile (spec 3 Profile); admins change others' email with PATCH /users/users/{id}. */
export function emailRoutes(app: UsersApp, state: UserServiceState) {
  app.post(
    '/users/users/:id/email',
    {
      schema: { tags: ['profile'], params: Id, body: EmailBody, response: { 200: MessageResult, ...errors } },
    },
    async (request) => {
      const actor = await loadActor(request, app.deps.db);
      const target = await ownOrVisible(app, state, actor, request.params.id);
      const email = request.body.email.trim();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw badRequest(USER_MESSAGES.emailInvalid);
      if (target.is_federated) throw forbidden(USER_MESSAGES.federatedEmail);
      if (actor.user?.id === target.id) refuseWhileImpersonating(request.ctx);
      await updateUser(app, state, request, actor, target, { email });
      return { message: USER_MESSAGES.emailSaved };
    },
  );
}

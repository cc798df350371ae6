import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AccountSetupLinks, ErrorResponse } from '@portal/contracts';
import { forbidden } from '@portal/core';
import { permissionsOf } from '../profile/profile';
import { loadActor } from '../users/access';
import { accountSetupLinks } from './account-setup-links';

/**
 * GET /users/account-setup/links: the signed-in (effective) user's setup
 * links. The user is read in the context's tenant (loadActor), so the
 * permissions are that tenant's rows only.
 */
export async function accountSetupRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;
  app.get(
    '/users/account-setup/links',
    {
      schema: {
        tags: ['messages'],
        summary: 'The Account Setup modal’s links for the signed-in user',
        response: { 200: AccountSetupLinks, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => {
      const actor = await loadActor(request, db);
      if (!actor.user) throw forbidden('This call needs a signed-in user.');
      const permissions = await permissionsOf(db, actor.user.id, actor.user.role_id);
      return { data: accountSetupLinks(permissions) };
    },
  );
}

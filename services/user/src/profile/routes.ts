import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorResponse, UserProfile } from '@portal/contracts';
import { requireUser, type UserServiceState } from '../lib/context';
import { buildProfile } from './profile';

export async function profileRoutes(base: FastifyInstance, state: UserServiceState) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/users/whoami',
    {
      schema: {
        tags: ['profile'],
        summary: 'The signed-in user',
        response: { 200: UserProfile, 401: ErrorResponse, 502: ErrorResponse },
      },
    },
    async (request) => {
      const ctx = requireUser(request);
      return buildProfile(app, state, ctx.tenant, ctx.user_id, request.ctx.actor_id, ctx.request_id);
    },
  );
}

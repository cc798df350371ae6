import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ErrorResponse, Text } from '@portal/contracts';
import { forbidden } from '@portal/core';

const Body = Type.Object(
  { usernames: Type.Array(Text({ maxLength: 128 }), { maxItems: 5000 }) },
  { additionalProperties: false },
);

/**
 * POST /users/internal/usernames-taken: which of these usernames already
 * exist in the caller's tenant (case-insensitive). For other services only
 * (a system context): the case service checks onboarding files with it. The
 * gateway never routes it (a write not in its policy table is refused).
 */
export const usernamesTakenRoute: FastifyPluginAsync = async (app) => {
  app.post<{ Body: Static<typeof Body> }>(
    '/users/internal/usernames-taken',
    {
      schema: {
        tags: ['internal'],
        body: Body,
        response: { 200: Type.Object({ taken: Type.Array(Type.String()) }), 403: ErrorResponse },
      },
    },
    async (request) => {
      if (request.ctx.kind !== 'system') throw forbidden('This call is for the portal services only.');
      const names = [...new Set(request.body.usernames.map((u) => u.trim().toLowerCase()).filter(Boolean))];
      if (!names.length) return { taken: [] };
      const { rows } = await app.deps.db.query<{ u: string }>(
        `select distinct lower(username) as u from users.users where tenant = $1 and lower(username) = any($2::text[])`,
        [request.ctx.tenant, names],
      );
      return { taken: rows.map((r) => r.u) };
    },
  );
};

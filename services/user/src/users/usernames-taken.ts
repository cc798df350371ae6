import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ErrorResponse, Text } from '@portal/contracts';
import { forbidden } from '@portal/core';

const Body = Type.Object(
  { usernames: Type.Array(Text({ maxLength: 128 }), { maxItems: 5000 }) },
  { additionalProperties: false },
);

const Answer = Type.Object({
  taken: Type.Array(Type.String()),
  /** Each existing user of those names with its merchant: the onboarding job knows the users it created. */
  users: Type.Array(
    Type.Object({ username: Type.String(), merchant_id: Type.Union([Type.Integer(), Type.Null()]) }),
  ),
});

/**
 * POST /users/internal/usernames-taken: which of these usernames already
 * exist in the caller's tenant (case-insensitive), and the merchant of each.
 * For other services only (a system context): the case service checks
 * onboarding files with it, and its finalize job tells a main admin an earlier
 * attempt created (same merchant) from a name taken by someone else. The
 * gateway never routes it (a write not in its policy table is refused).
 */
export const usernamesTakenRoute: FastifyPluginAsync = async (app) => {
  app.post<{ Body: Static<typeof Body> }>(
    '/users/internal/usernames-taken',
    {
      schema: {
        tags: ['internal'],
        body: Body,
        response: { 200: Answer, 403: ErrorResponse },
      },
    },
    async (request) => {
      if (request.ctx.kind !== 'system') throw forbidden('This call is for the portal services only.');
      const names = [...new Set(request.body.usernames.map((u) => u.trim().toLowerCase()).filter(Boolean))];
      if (!names.length) return { taken: [], users: [] };
      const { rows } = await app.deps.db.query<{ u: string; merchant_id: number | null }>(
        `select lower(username) as u, merchant_id from users.users
         where tenant = $1 and lower(username) = any($2::text[]) order by 1, id`,
        [request.ctx.tenant, names],
      );
      return {
        taken: [...new Set(rows.map((r) => r.u))],
        users: rows.map((r) => ({
          username: r.u,
          merchant_id: r.merchant_id === null ? null : Number(r.merchant_id),
        })),
      };
    },
  );
};

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorResponse, ProfileTimeZone } from '@portal/contracts';
import { badRequest, forbidden } from '@portal/core';
import { requireUser } from '../lib/context';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };

/** The signed-in user's time zone (profile field): deadline reminders go out at 08:00 there. */
export async function timeZoneRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;

  app.get(
    '/users/profile/time-zone',
    { schema: { tags: ['profile'], response: { 200: ProfileTimeZone, ...errors } } },
    async (request) => {
      const ctx = requireUser(request);
      const { rows } = await db.query<{ time_zone: string | null }>(
        `select time_zone from users.users where tenant = $1 and id = $2`,
        [ctx.tenant, ctx.user_id],
      );
      return { time_zone: rows[0]?.time_zone ?? null };
    },
  );

  app.put(
    '/users/profile/time-zone',
    { schema: { tags: ['profile'], body: ProfileTimeZone, response: { 200: ProfileTimeZone, ...errors } } },
    async (request) => {
      const ctx = requireUser(request);
      if (ctx.read_only) throw forbidden('Read-only users cannot change data.');
      const zone = request.body.time_zone;
      // Postgres converts with its own zone list: a name it does not know would fail every reminder run.
      if (zone !== null) {
        const known = await db.query(`select 1 from pg_timezone_names where name = $1`, [zone]);
        if (!known.rows.length) throw badRequest('time_zone: unknown time zone.');
      }
      await db.query(
        `update users.users set time_zone = $3, updated_at = now() where tenant = $1 and id = $2`,
        [ctx.tenant, ctx.user_id, zone],
      );
      return { time_zone: zone };
    },
  );
}

import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { MailedExportStarted, UserListQuery, type UserItem } from '@portal/contracts';
import { exportIsMailed } from '@portal/exports';
import type { UserServiceState } from '../lib/context';
import { loadActor } from './access';
import { usersCsvStream, usersXlsxStream } from './export';
import { mailUsersExport } from './mailed-export';
import { countUsers, listUserRows, userRowsSql, type UserItemRow } from './queries';
import { errors, scopeFilter, withNames, type UsersApp } from './route-support';

const ExportQuery = Type.Composite([
  UserListQuery,
  Type.Object({ export_type: Type.Optional(Type.Union([Type.Literal('page'), Type.Literal('all')])) }),
]);
const EXPORT_BATCH = 2000;

/**
 * GET /users/users.csv and .xlsx (spec 3 §2): the grid's filters and sort; all
 * rows (export_type=all, default) or the page, streamed.
 */
export function exportUsersRoutes(app: UsersApp, state: UserServiceState) {
  const { db } = app.deps;
  for (const format of ['csv', 'xlsx'] as const) {
    app.get(
      `/users/users.${format}`,
      {
        schema: {
          tags: ['users'],
          querystring: ExportQuery,
          response: { 202: MailedExportStarted, ...errors },
        },
      },
      async (request, reply) => {
        const actor = await loadActor(request, db);
        const q = request.query;
        const filter = await scopeFilter(app, state, actor, q);
        const sort = { sortBy: q.sort_by, sortOrder: q.sort_order };
        // All rows above EXPORT_MAIL_THRESHOLD_ROWS: 202 and a mailed link (@portal/exports), to the
        // person at the keyboard (the actor while impersonating); system calls always stream.
        const recipient = request.ctx.actor_id ?? request.ctx.user_id;
        if (
          recipient !== null &&
          (await exportIsMailed(app.deps.env, q.export_type, () => countUsers(db, filter)))
        )
          return reply.code(202).send(await mailUsersExport(db, { format, filter, sort, recipient }));
        async function* batches(): AsyncIterable<UserItem[]> {
          if (q.export_type === 'page') {
            const page = { start: q.start ?? 0, limit: Math.min(q.limit ?? 25, 1000), ...sort };
            yield withNames(state, actor, await listUserRows(db, filter, page));
            return;
          }
          const { sql, params } = userRowsSql(filter, sort);
          for await (const rows of db.stream<UserItemRow>(sql, params, EXPORT_BATCH))
            yield withNames(state, actor, rows);
        }
        const stamp = new Date().toISOString().slice(0, 10);
        reply.header('content-disposition', `attachment; filename="users-${stamp}.${format}"`);
        // A file answer (200) is a stream, which the typed reply (202 JSON, errors) does not describe.
        const file = reply as unknown as FastifyReply;
        if (format === 'csv') return file.type('text/csv; charset=utf-8').send(usersCsvStream(batches()));
        return file
          .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .send(usersXlsxStream(batches(), (err) => request.log.error({ err }, 'users xlsx export failed')));
      },
    );
  }
}

import type { MailedExportStarted, UserItem } from '@portal/contracts';
import type { Db, Queryable } from '@portal/core';
import { deliverExport, startMailedExport, type ExportFile } from '@portal/exports';
import { defineJob, JobError, Type } from '@portal/jobs';
import { usersCsvStream, usersXlsxStream } from './export';
import { toUserItem, userRowsSql, type UserFilter, type UserItemRow } from './queries';

/**
 * The users grid's mailed export (@portal/exports; spec 3 §7 'if the reply is
 * not a file it is treated as an email export'). The job's data is the
 * caller's scope as the route computed it (the UserFilter: tenant, visible
 * merchants, own-user-only for merchant users, role, status, search) and the
 * sort, so it writes exactly the rows the request would have streamed.
 */
const Data = Type.Object({
  format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]),
  filter: Type.Object({
    tenant: Type.String(),
    merchantIds: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
    onlyUserId: Type.Optional(Type.Integer()),
    roleId: Type.Optional(Type.Integer()),
    statusId: Type.Optional(Type.Integer()),
    search: Type.Optional(Type.String()),
  }),
  sort: Type.Object({
    sortBy: Type.Optional(Type.String()),
    sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  }),
});

const BATCH = 2000;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Company names for a batch. The route asks the case service with the
 * caller's context; a job has no caller, so it reads what the case service
 * declares of its merchants (the cases_api.merchants view) on the one database.
 */
async function businessNames(db: Queryable, tenant: string, ids: number[]): Promise<Map<number, string>> {
  const { rows } = await db.query<{ id: string; business_name: string }>(
    `select id, business_name from cases_api.merchants where tenant_id = $1 and id = any($2::bigint[])`,
    [tenant, [...new Set(ids)]],
  );
  return new Map(rows.map((r) => [Number(r.id), r.business_name]));
}

async function* userBatches(
  db: Db,
  filter: UserFilter,
  sort: { sortBy?: string; sortOrder?: 'asc' | 'desc' },
): AsyncIterable<UserItem[]> {
  const { sql, params } = userRowsSql(filter, sort);
  for await (const rows of db.stream<UserItemRow>(sql, params, BATCH)) {
    const names = await businessNames(
      db,
      filter.tenant,
      rows.map((r) => Number(r.merchant_id)),
    );
    yield rows.map((r) => toUserItem(r, names.get(Number(r.merchant_id)) ?? null));
  }
}

const userMailedExportJob = defineJob({
  name: 'user.mailed-export',
  schema: Data,
  retryLimit: 3,
  retryDelaySeconds: 30,
  expireInSeconds: 3600,
  handler: async (ctx) => {
    if (ctx.createdBy === null)
      throw new JobError('The export has no requester to mail.', { permanent: true });
    const { format, filter, sort } = ctx.data;
    if (filter.tenant !== ctx.tenant)
      throw new JobError('The export names another tenant.', { permanent: true });
    const file: ExportFile = {
      filename: `users-${new Date().toISOString().slice(0, 10)}.${format}`,
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE,
      write: () =>
        format === 'csv'
          ? usersCsvStream(userBatches(ctx.db, filter, sort))
          : usersXlsxStream(userBatches(ctx.db, filter, sort), (err) =>
              ctx.log.error({ err }, 'users xlsx export failed'),
            ),
    };
    return deliverExport(ctx, file, ctx.createdBy);
  },
});

export const USER_EXPORT_JOBS = [userMailedExportJob];

/** Enqueues the job (its own transaction) and answers the 202 body; the link goes to `recipient`. */
export function mailUsersExport(
  db: Db,
  input: {
    format: 'csv' | 'xlsx';
    filter: UserFilter;
    sort: { sortBy?: string; sortOrder?: 'asc' | 'desc' };
    recipient: number;
  },
): Promise<MailedExportStarted> {
  const { format, filter, sort, recipient } = input;
  // Only defined keys: the job's schema refuses undefined values.
  const data = JSON.parse(JSON.stringify({ format, filter, sort })) as typeof Data.static;
  return db.transaction((tx) =>
    startMailedExport(tx, userMailedExportJob, data, { tenant: filter.tenant, createdBy: recipient }),
  );
}

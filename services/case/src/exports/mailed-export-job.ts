import {
  InternalContext,
  type AlertListQuery,
  type CaseListQuery,
  type MailedExportStarted,
} from '@portal/contracts';
import type { Db } from '@portal/core';
import { deliverExport, startMailedExport } from '@portal/exports';
import { defineJob, JobError, Type } from '@portal/jobs';
import { alertExport } from '../alerts/alert-export';
import { caseExport } from './case-export';

/**
 * The case service's mailed exports (@portal/exports): the chargebacks list
 * and the alerts grid. The job's data is the requester's signed context as it
 * was at request time (tenant, merchant, roles, MID allow and exclude lists)
 * plus the list's query, so the job exports exactly what that request would
 * have streamed, whoever runs it and whenever.
 */
const Data = Type.Object({
  source: Type.Union([Type.Literal('cases'), Type.Literal('alerts')]),
  format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]),
  context: InternalContext,
  /** The request's query after validation (CaseListQuery or AlertListQuery), export_type 'all'. */
  query: Type.Record(Type.String(), Type.Unknown()),
});

export const caseMailedExportJob = defineJob({
  name: 'case.mailed-export',
  schema: Data,
  retryLimit: 3,
  retryDelaySeconds: 30,
  expireInSeconds: 3600,
  handler: async (ctx) => {
    const { source, format, context, query } = ctx.data;
    if (ctx.createdBy === null)
      throw new JobError('The export has no requester to mail.', { permanent: true });
    const onError = (err: unknown) => ctx.log.error({ err, job: ctx.id }, 'mailed xlsx export failed');
    // The query passed the route's schema when the request came in.
    const { file } =
      source === 'cases'
        ? await caseExport(ctx.db, context, query as CaseListQuery, format, onError)
        : await alertExport(ctx.db, context, query as AlertListQuery, format, onError);
    return deliverExport(ctx, file, ctx.createdBy);
  },
});

export const EXPORT_JOBS = [caseMailedExportJob];

/**
 * 202 body of a mailed export, the job enqueued in its own transaction. The
 * link goes to the person at the keyboard (the actor while impersonating);
 * null when there is no user to mail (a system call streams instead).
 */
export async function mailExport(
  db: Db,
  context: InternalContext,
  input: { source: 'cases' | 'alerts'; format: 'csv' | 'xlsx'; query: CaseListQuery | AlertListQuery },
): Promise<MailedExportStarted | null> {
  const recipient = context.actor_id ?? context.user_id;
  if (recipient === null) return null;
  const data = { ...input, context, query: { ...input.query, export_type: 'all' } };
  return db.transaction((tx) =>
    startMailedExport(tx, caseMailedExportJob, data, { tenant: context.tenant, createdBy: recipient }),
  );
}

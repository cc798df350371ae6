import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AuditList, ErrorResponse, type AuditItem, type RoleName } from '@portal/contracts';
import { forbidden } from '@portal/core';
import type { UserServiceState } from '../lib/context';
import { inSubtree, isProvider, loadActor, type Actor } from '../users/access';
import { userMerchantIds } from '../users/queries';
import { csvLine } from '../users/export';
import {
  auditExportSql,
  countAudit,
  insertAuditBatch,
  listAudit,
  showsAddresses,
  toAuditItem,
  type AuditRow,
  type AuditScope,
} from './audit-queries';
import { AuditBatchBody, AuditQuery } from './audit-schemas';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 502: ErrorResponse };
/** The roles that administer users (the gateway's policy names the same ones). */
const AUDIT_READERS: readonly RoleName[] = [
  'cb911_admin',
  'cb911_manager',
  'partner_admin',
  'merchant_admin',
];
const EXPORT_BATCH = 2000;

const CSV_COLUMNS: { header: string; value: (a: AuditItem) => string | number }[] = [
  { header: 'Time', value: (a) => a.time },
  { header: 'Actor', value: (a) => a.actor?.username ?? a.actor?.id ?? '' },
  { header: 'User', value: (a) => a.user?.username ?? a.user?.id ?? '' },
  { header: 'Impersonated', value: (a) => (a.impersonated ? 'Yes' : 'No') },
  { header: 'API Key', value: (a) => a.api_key_id ?? '' },
  { header: 'Action', value: (a) => a.action },
  { header: 'Method', value: (a) => a.method ?? '' },
  { header: 'Route', value: (a) => a.route ?? '' },
  {
    header: 'Targets',
    value: (a) =>
      Object.entries(a.target_ids)
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
  },
  { header: 'Status', value: (a) => a.status ?? '' },
  { header: 'Request ID', value: (a) => a.request_id ?? '' },
];
const IP_COLUMN: (typeof CSV_COLUMNS)[number] = { header: 'IP', value: (a) => a.ip ?? '' };

/** Provider staff read the tenant; partner and merchant admins the users of their merchant subtree. */
async function auditScope(app: FastifyInstance, state: UserServiceState, actor: Actor): Promise<AuditScope> {
  if (actor.user && !AUDIT_READERS.includes(actor.user.role_name as RoleName)) throw forbidden();
  if (isProvider(actor)) return { tenant: actor.tenant, merchantIds: null };
  const ids: number[] = [];
  for (const id of await userMerchantIds(app.deps.db, actor.tenant))
    if (await inSubtree(state, actor, actor.user!.merchant_id, id)) ids.push(id);
  return { tenant: actor.tenant, merchantIds: ids };
}

/** Audit trail (design §11, issue 19): the gateway's batches in, the admins' grid and CSV out. */
export async function auditRoutes(base: FastifyInstance, state: UserServiceState) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;
  const actorOf = (request: FastifyRequest) => loadActor(request, db);

  // Only the gateway posts here, signed as a system call for one tenant (no gateway route leads here).
  app.post(
    '/users/audit/batch',
    {
      schema: {
        tags: ['audit'],
        body: AuditBatchBody,
        response: { 200: Type.Object({ stored: Type.Integer() }), ...errors },
      },
    },
    async (request) => {
      if (request.ctx.kind !== 'system') throw forbidden();
      return { stored: await insertAuditBatch(db, request.ctx.tenant, request.body.entries) };
    },
  );

  app.get(
    '/users/audit',
    { schema: { tags: ['audit'], querystring: AuditQuery, response: { 200: AuditList, ...errors } } },
    async (request) => {
      const q = request.query;
      const scope = await auditScope(app, state, await actorOf(request));
      const start = q.start ?? 0;
      const limit = q.limit ?? 25;
      const total = await countAudit(db, scope, q);
      const data = limit === 0 ? [] : await listAudit(db, scope, q, { start, limit });
      return { data, pagination: { total, limit, start } };
    },
  );

  // Every row the filters select, streamed in cursor batches; cells a spreadsheet would run are neutralised.
  app.get(
    '/users/audit.csv',
    { schema: { tags: ['audit'], querystring: AuditQuery } },
    async (request, reply) => {
      const scope = await auditScope(app, state, await actorOf(request));
      const { sql, params } = auditExportSql(scope, request.query);
      const withAddress = showsAddresses(scope);
      const columns = withAddress ? [...CSV_COLUMNS, IP_COLUMN] : CSV_COLUMNS;
      async function* lines() {
        yield csvLine(columns.map((c) => c.header));
        for await (const rows of db.stream<AuditRow>(sql, params, EXPORT_BATCH))
          yield rows.map((r) => csvLine(columns.map((c) => c.value(toAuditItem(r, withAddress))))).join('');
      }
      const stamp = new Date().toISOString().slice(0, 10);
      reply.header('content-disposition', `attachment; filename="audit-${stamp}.csv"`);
      return reply.type('text/csv; charset=utf-8').send(Readable.from(lines()));
    },
  );
}

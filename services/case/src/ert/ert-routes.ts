import type { FastifyPluginAsync } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import {
  ERT_CSV_MAX_BYTES,
  ERT_TEMPLATES,
  ErrorResponse,
  ErtBulkAnswer,
  ErtFileBody,
  ErtIdParams,
  ErtListQuery,
  ErtResolveAnswer,
  ErtResolveBody,
  ErtRowList,
  ErtUploadQuery,
  UploadLinkAnswer,
} from '@portal/contracts';
import { caseObjectStore, csvText, csvUploadLink } from '../onboarding/csv-file';
import { PROOF_TYPES } from './proof-type';
import {
  assertErtWriter,
  createBulk,
  ERT_AREA,
  listErtRecords,
  resolveBulk,
  resolveOne,
} from './ert-records';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};
const tags = ['ert'];
const ProofQuery = Type.Object({
  filename: Type.Optional(ErtUploadQuery.properties.filename),
  content_type: Type.Optional(Type.Union(PROOF_TYPES.map((t) => Type.Literal(t)))),
});
const EXPORT_LIMIT = 50_000;

/** ERT records page (spec 3 §2, §7): list and CSV export, single and bulk resolve, bulk creation. */
export const ertRoutes: FastifyPluginAsync = async (app) => {
  const { db, env, log } = app.deps;
  const store = () => caseObjectStore(env, log);
  const csvLink = async (ctx: Parameters<typeof assertErtWriter>[0], filename?: string) => {
    assertErtWriter(ctx);
    return csvUploadLink(await store(), ctx.tenant, ERT_AREA, filename, ERT_CSV_MAX_BYTES);
  };

  app.get<{ Querystring: ErtListQuery }>(
    '/ert/erts',
    { schema: { tags, querystring: ErtListQuery, response: { 200: ErtRowList, ...errors } } },
    async (request) => listErtRecords(db, request.ctx, request.query),
  );

  app.get<{ Querystring: ErtListQuery }>(
    '/ert/erts.csv',
    { schema: { tags, querystring: ErtListQuery } },
    async (request, reply) => {
      const { data } = await listErtRecords(db, request.ctx, {
        ...request.query,
        start: 0,
        limit: EXPORT_LIMIT,
      });
      const header = [
        'id',
        'merchant',
        'status',
        'level',
        'content',
        'created_by',
        'resolved_by',
        'date_created',
        'date_approved',
        'date_resolved',
        'date_archived',
      ] as const;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="erts.csv"')
        .send(
          csvText(
            header,
            data.map((r) => header.map((h) => r[h])),
          ),
        );
    },
  );

  app.get<{ Params: { kind: 'create' | 'resolve' } }>(
    '/ert/erts/template/:kind',
    {
      schema: {
        tags,
        params: Type.Object({ kind: Type.Union([Type.Literal('create'), Type.Literal('resolve')]) }),
      },
    },
    async (request, reply) => {
      const t = ERT_TEMPLATES[request.params.kind];
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${t.filename}"`)
        .send(csvText(t.header, []));
    },
  );

  app.get<{ Querystring: Static<typeof ErtUploadQuery> }>(
    '/ert/erts/upload/link',
    { schema: { tags, querystring: ErtUploadQuery, response: { 200: UploadLinkAnswer, ...errors } } },
    async (request) => csvLink(request.ctx, request.query.filename),
  );

  app.post<{ Body: ErtFileBody }>(
    '/ert/erts/upload',
    { schema: { tags, body: ErtFileBody, response: { 200: ErtBulkAnswer, ...errors } } },
    async (request) => createBulk(db, await store(), request.ctx, request.body.s3_key),
  );

  app.get<{ Querystring: Static<typeof ErtUploadQuery> }>(
    '/ert/erts/bulk/resolve/upload',
    { schema: { tags, querystring: ErtUploadQuery, response: { 200: UploadLinkAnswer, ...errors } } },
    async (request) => csvLink(request.ctx, request.query.filename),
  );

  app.post<{ Body: ErtFileBody }>(
    '/ert/erts/bulk/resolve',
    { schema: { tags, body: ErtFileBody, response: { 200: ErtBulkAnswer, ...errors } } },
    async (request) => resolveBulk(db, await store(), request.ctx, request.body.s3_key),
  );

  app.get<{ Params: { id: number }; Querystring: Static<typeof ProofQuery> }>(
    '/ert/erts/:id/resolve/upload',
    {
      schema: {
        tags,
        params: ErtIdParams,
        querystring: ProofQuery,
        response: { 200: UploadLinkAnswer, ...errors },
      },
    },
    async (request) => {
      assertErtWriter(request.ctx);
      const contentType = request.query.content_type ?? 'application/pdf';
      return (await store()).createUploadLink({
        tenant: request.ctx.tenant,
        area: ERT_AREA,
        filename: request.query.filename ?? `ert-${request.params.id}-proof`,
        contentType,
        maxBytes: ERT_CSV_MAX_BYTES * 2,
      });
    },
  );

  app.post<{ Params: { id: number }; Body: ErtResolveBody }>(
    '/ert/erts/:id/resolve',
    {
      schema: {
        tags,
        params: ErtIdParams,
        body: ErtResolveBody,
        response: { 200: ErtResolveAnswer, ...errors },
      },
    },
    async (request) => resolveOne(db, await store(), request.ctx, request.params.id, request.body.s3_key),
  );
};

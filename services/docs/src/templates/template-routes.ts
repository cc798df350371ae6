import type { FastifyPluginAsync } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  ErrorResponse,
  Template,
  TEMPLATE_CONTENT_TYPES,
  TEMPLATE_DOCUMENT_TYPES,
  TEMPLATE_MAX_BYTES,
  TEMPLATE_MESSAGES,
  TEMPLATE_TYPES,
  TemplateCreateBody,
  TemplateDeleteParams,
  TemplateList,
  TemplateListQuery,
  TemplateTypes,
  TemplateUploadLinkQuery,
  UploadLinkResponse,
  type InternalContext,
} from '@portal/contracts';
import { badRequest, forbidden, HttpError, notFound, type Db } from '@portal/core';
import { parseObjectKey, type ObjectStore } from '@portal/storage';
import { assertUser } from '../representment/representment-routes';
import type { CaseLookups } from './case-lookups';
import { readAll } from '../representment/file-check';
import { checkTemplateFile, type TemplateContentType } from './file-check';
import { deleteTemplate, insertTemplate, listTemplates, templateKeyUsed } from './template-repository';

const TEMPLATE_AREA = 'templates';

interface TemplateRouteDeps {
  db: Db;
  store: ObjectStore;
  lookups: CaseLookups;
}

function assertWriter(ctx: InternalContext) {
  assertUser(ctx);
  if (ctx.read_only) throw forbidden('Read-only users cannot change templates.');
}

const isTemplateType = (t: string): t is TemplateContentType =>
  (TEMPLATE_CONTENT_TYPES as readonly string[]).includes(t);

/**
 * Document templates (spec 2 §7 'Documents: templates'). A merchant's
 * templates are visible to users whose scope includes the merchant (the case
 * service answers); writes need the templatelib feature (gateway policy) and
 * a writable user.
 */
export function templateRoutes(deps: TemplateRouteDeps): FastifyPluginAsync {
  const { db, store, lookups } = deps;
  return async (app) => {
    app.get<{ Querystring: Static<typeof TemplateListQuery> }>(
      '/docs/templates',
      {
        schema: {
          tags: ['templates'],
          querystring: TemplateListQuery,
          response: { 200: TemplateList, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertUser(ctx);
        const { merchant_id, start = 0, limit = 25 } = request.query;
        await lookups.merchantMids(ctx, merchant_id, TEMPLATE_MESSAGES.merchantNotFound);
        const { data, total } = await listTemplates(db, ctx.tenant, merchant_id, start, limit);
        return { data, pagination: { total, limit, start } };
      },
    );

    app.get(
      '/docs/templates/types',
      { schema: { tags: ['templates'], response: { 200: TemplateTypes } } },
      async (request) => {
        assertUser(request.ctx);
        return {
          template_types: TEMPLATE_TYPES.map((t) => ({ ...t })),
          document_types: TEMPLATE_DOCUMENT_TYPES.map((t) => ({ ...t })),
        };
      },
    );

    app.get<{ Querystring: Static<typeof TemplateUploadLinkQuery> }>(
      '/docs/templates/upload-link',
      {
        schema: {
          tags: ['templates'],
          querystring: TemplateUploadLinkQuery,
          response: { 200: UploadLinkResponse, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
        },
        // Named types only: anything else gets the upload rules' text rather than a schema message.
        attachValidation: true,
      },
      async (request) => {
        const ctx = request.ctx;
        assertWriter(ctx);
        if (request.validationError) {
          const q = request.query as Partial<Record<string, unknown>>;
          if (typeof q.content_type === 'string' && !isTemplateType(q.content_type))
            throw badRequest(TEMPLATE_MESSAGES.typeNotAllowed);
          throw badRequest(request.validationError.message);
        }
        const { merchant_id, filename, content_type } = request.query;
        await lookups.merchantMids(ctx, merchant_id, TEMPLATE_MESSAGES.merchantNotFound);
        return store.createUploadLink({
          tenant: ctx.tenant,
          area: TEMPLATE_AREA,
          filename,
          contentType: content_type,
          maxBytes: TEMPLATE_MAX_BYTES,
        });
      },
    );

    app.post<{ Body: Static<typeof TemplateCreateBody> }>(
      '/docs/templates',
      {
        schema: {
          tags: ['templates'],
          body: TemplateCreateBody,
          response: { 201: Template, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
        },
        attachValidation: true,
      },
      async (request, reply) => {
        const ctx = request.ctx;
        assertWriter(ctx);
        if (request.validationError) {
          const b = (request.body ?? {}) as Partial<Record<string, unknown>>;
          if (typeof b.content_type === 'string' && !isTemplateType(b.content_type))
            throw badRequest(TEMPLATE_MESSAGES.typeNotAllowed);
          throw badRequest(request.validationError.message);
        }
        const body = request.body;
        const mids = await lookups.merchantMids(ctx, body.merchant_id, TEMPLATE_MESSAGES.merchantNotFound);
        const midIds = [...new Set(body.mid_ids ?? [])];
        if (midIds.some((id) => !mids.has(id))) throw badRequest(TEMPLATE_MESSAGES.midNotFound);

        // The key must be a templates upload of this tenant, not yet used by a template.
        const parsed = parseObjectKey(body.s3_key);
        if (!parsed || parsed.tenant !== ctx.tenant || parsed.area !== TEMPLATE_AREA)
          throw notFound(TEMPLATE_MESSAGES.fileNotFound);
        if (await templateKeyUsed(db, ctx.tenant, body.s3_key))
          throw notFound(TEMPLATE_MESSAGES.fileNotFound);
        const info = await store.head(ctx.tenant, body.s3_key);
        if (!info) throw notFound(TEMPLATE_MESSAGES.fileNotFound);

        // Check the stored bytes; a refused file is removed (nothing of it is kept).
        let pages: number;
        let contentType: TemplateContentType;
        try {
          if (info.size > TEMPLATE_MAX_BYTES) throw badRequest(TEMPLATE_MESSAGES.tooLarge);
          if (!isTemplateType(info.contentType) || info.contentType !== body.content_type)
            throw badRequest(TEMPLATE_MESSAGES.typeNotAllowed);
          contentType = info.contentType;
          const stream = await store.read(ctx.tenant, body.s3_key);
          if (!stream) throw notFound(TEMPLATE_MESSAGES.fileNotFound);
          const bytes = await readAll(stream, {
            bytes: TEMPLATE_MAX_BYTES,
            message: TEMPLATE_MESSAGES.tooLarge,
          });
          ({ pages } = await checkTemplateFile(bytes, contentType));
        } catch (error) {
          if (error instanceof HttpError && error.statusCode === 400)
            await store
              .delete(ctx.tenant, body.s3_key)
              .catch((e: unknown) => request.log.warn({ err: e }, 'refused template not removed'));
          throw error;
        }
        const template = await insertTemplate(db, {
          tenant: ctx.tenant,
          merchantId: body.merchant_id,
          name: body.name.trim() || body.file_name,
          fileName: body.file_name,
          s3Key: body.s3_key,
          contentType,
          size: info.size,
          pages,
          documentTypeId: body.document_type_id ?? null,
          midIds,
          createdBy: ctx.username,
        });
        request.log.info({ template: template.id, merchant: body.merchant_id, pages }, 'template created');
        return reply.status(201).send(template);
      },
    );

    app.delete<{ Params: Static<typeof TemplateDeleteParams> }>(
      '/docs/merchant/:id/template/:templateId',
      {
        schema: {
          tags: ['templates'],
          params: TemplateDeleteParams,
          response: { 204: { type: 'null' }, 403: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request, reply) => {
        const ctx = request.ctx;
        assertWriter(ctx);
        const { id, templateId } = request.params;
        await lookups.merchantMids(ctx, id, TEMPLATE_MESSAGES.merchantNotFound);
        if (!(await deleteTemplate(db, ctx.tenant, id, templateId)))
          throw notFound(TEMPLATE_MESSAGES.notFound);
        return reply.status(204).send();
      },
    );
  };
}

import type { FastifyPluginAsync } from 'fastify';
import {
  BUILDABLE_STATUSES,
  BUILDER_MESSAGES as M,
  BuilderCase,
  BuilderCaseQuery,
  BuilderSaveAnswer,
  BuilderSaveBody,
  CATALOGUE_FIELDS,
  CaseIdParams,
  ErrorResponse,
  FIELD_GROUPS,
  RelatedCaseList,
  TemplateCopyAnswer,
  TemplateCopyBody,
  type CaseDetail,
  type CatalogueField,
  type InternalContext,
} from '@portal/contracts';
import { badRequest, conflict, lookupNames, type CaseClient, type Db } from '@portal/core';
import { categoryFor, insertProduct, productFor } from '../products/product-repository';
import { assertBuilder } from '../lib/guard';
import { builderCase, pageGroups, valueOf } from './builder-case';
import { copyDraft, loadDraft, saveDraft } from './draft-repository';
import { answeredSelects, checkSave } from './rules';

/** Field ids that carry the case's own facts: never copied to another case. */
const CASE_FACT_FIELDS = [...CATALOGUE_FIELDS.values()]
  .filter((f) => f.prefill || f.id === 22)
  .map((f) => f.id);

/**
 * The items each answered select may pick, by field id: its lookup list as the case service answers the
 * caller (design §13), each list asked once, before the save's transaction.
 */
async function selectOptions(cases: CaseClient, ctx: InternalContext, fields: readonly CatalogueField[]) {
  const names = await lookupNames(
    cases,
    ctx,
    fields.map((f) => f.endpoint),
  );
  return new Map(fields.map((f) => [f.id, names.get(f.endpoint ?? '') ?? new Map<string, string>()]));
}

function assertBuildable(c: CaseDetail) {
  if (!BUILDABLE_STATUSES.includes(c.status_id)) throw conflict(M.notBuildable(c.status));
}

/**
 * The builder case (spec 2 §2.7, §3, §4, §5, §7): read a page, save a page
 * (every rule checked before the one transaction that writes the draft and,
 * for a new product, the product), the related cases of step 4 and the
 * template copy. Scope is the case service's answer for the caller.
 */
export function caseRoutes(deps: { db: Db; cases: CaseClient }): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { id: number }; Querystring: { page?: number } }>(
      '/builder/case/:id',
      {
        schema: {
          tags: ['builder'],
          summary: 'The builder case: one page of field groups with the saved answers and the case facts',
          params: CaseIdParams,
          querystring: BuilderCaseQuery,
          response: { 200: BuilderCase, 403: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertBuilder(ctx, false);
        const c = await deps.cases.caseDetail(ctx, request.params.id);
        const draft = await loadDraft(deps.db, ctx.tenant, c.id);
        return builderCase(deps.db, ctx.tenant, c, draft, request.query.page ?? 1);
      },
    );

    app.put<{ Params: { id: number }; Body: BuilderSaveBody }>(
      '/builder/case/:id',
      {
        schema: {
          tags: ['builder'],
          summary: 'Saves one page of the case draft; refused fields answer data.fields [{id, errors}]',
          params: CaseIdParams,
          body: BuilderSaveBody,
          response: {
            200: BuilderSaveAnswer,
            400: ErrorResponse,
            403: ErrorResponse,
            404: ErrorResponse,
            409: ErrorResponse,
          },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertBuilder(ctx, true);
        const body = request.body;
        const c = await deps.cases.caseDetail(ctx, request.params.id);
        assertBuildable(c);
        const draft = await loadDraft(deps.db, ctx.tenant, c.id);
        if (body.page > 1 && !draft) throw conflict(M.firstPage);
        const groups = await pageGroups(deps.db, ctx.tenant, c, draft, body.page);
        const pageFields = new Set(
          FIELD_GROUPS.filter((g) => groups.includes(g.id)).flatMap((g) => g.fields.map((f) => f.id)),
        );
        const product =
          body.page === 1 && body.product_id
            ? await productFor(deps.db, {
                tenant: ctx.tenant,
                merchantId: c.merchant_id,
                midId: c.mid_id,
                id: body.product_id,
              })
            : null;
        const category =
          body.page === 1 && !body.product_id && body.category_id
            ? await categoryFor(deps.db, ctx.tenant, c.merchant_id, body.category_id)
            : null;
        const result = checkSave(body, {
          page: body.page,
          pageFields,
          currentValue: (id) => valueOf(c, draft, id),
          product,
          categoryFound: category !== null,
          options: await selectOptions(deps.cases, ctx, answeredSelects(body)),
        });
        if (result.errors.length) throw badRequest(M.invalid, { fields: result.errors });

        const saved = await deps.db.transaction(async (tx) => {
          let productId = draft?.product_id ?? null;
          if (body.page === 1) {
            productId = product?.id ?? null;
            if (!productId)
              productId = await insertProduct(tx, {
                tenant: ctx.tenant,
                merchantId: c.merchant_id,
                midId: c.mid_id,
                name: body.new_product_name!.trim(),
                description: body.new_product_description?.trim() || null,
                typeId: result.typeId!,
                categoryId: category!.id,
                createdBy: ctx.username,
              });
          }
          const page1 = body.page === 1;
          const stamp = await saveDraft(tx, {
            tenant: ctx.tenant,
            caseId: c.id,
            merchantId: c.merchant_id,
            productId,
            saleType: page1 ? body.sale_type! : draft!.sale_type,
            typeId: page1 ? result.typeId : draft!.type_id,
            isShippable: page1 ? (body.is_shippable ?? false) : draft!.is_shippable,
            isService: page1 ? (body.is_service ?? false) : draft!.is_service,
            isSubscription: page1 ? (body.is_subscription ?? false) : draft!.is_subscription,
            page: body.page,
            username: ctx.username,
            userId: ctx.user_id,
            values: result.values,
          });
          return { productId, stamp };
        });
        return {
          message: 'Saved.',
          page: body.page,
          product_id: saved.productId,
          type_id: body.page === 1 ? result.typeId : (draft?.type_id ?? null),
          last_updated: { timestamp: saved.stamp.timestamp, username: ctx.username },
        };
      },
    );

    app.get<{ Params: { id: number } }>(
      '/builder/case/:id/related',
      {
        schema: {
          tags: ['builder'],
          summary: 'Other open cases with the same card number (step 4 template list)',
          params: CaseIdParams,
          response: { 200: RelatedCaseList, 403: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertBuilder(ctx, false);
        const c = await deps.cases.caseDetail(ctx, request.params.id);
        const related = await deps.cases.relatedCases(ctx, c);
        return {
          data: related.map((r) => ({
            id: r.id,
            case_no: r.case_no,
            reason_code: r.reason_code,
            dispute_amt: r.dispute_amt,
            dispute_currency: r.dispute_currency,
            date_due: r.date_due,
            status: r.status,
          })),
        };
      },
    );

    app.post<{ Params: { id: number }; Body: { case_ids: number[] } }>(
      '/builder/case/:id/template',
      {
        schema: {
          tags: ['builder'],
          summary: 'Copies this case’s answers to chosen open cases with the same card number',
          params: CaseIdParams,
          body: TemplateCopyBody,
          response: {
            200: TemplateCopyAnswer,
            400: ErrorResponse,
            403: ErrorResponse,
            404: ErrorResponse,
            409: ErrorResponse,
          },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertBuilder(ctx, true);
        const c = await deps.cases.caseDetail(ctx, request.params.id);
        const draft = await loadDraft(deps.db, ctx.tenant, c.id);
        if (!draft) throw conflict(M.firstPage);
        const related = new Map((await deps.cases.relatedCases(ctx, c)).map((r) => [r.id, r]));
        const ids = [...new Set(request.body.case_ids)];
        const refused = ids.filter((id) => !related.has(id));
        if (refused.length)
          throw badRequest(M.notRelated(refused[0]!), {
            fields: refused.map((id) => ({ id: 'case_ids', errors: [M.notRelated(id)] })),
          });
        await deps.db.transaction((tx) =>
          copyDraft(
            tx,
            ctx.tenant,
            c.id,
            ids.map((id) => ({ caseId: id, merchantId: related.get(id)!.merchant_id })),
            { username: ctx.username, userId: ctx.user_id },
            CASE_FACT_FIELDS,
          ),
        );
        return { message: M.copied(ids.length), case_ids: ids };
      },
    );
  };
}

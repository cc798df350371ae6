import type { FastifyPluginAsync } from 'fastify';
import {
  BUILDER_MESSAGES as M,
  CategoriesQuery,
  CategoryList,
  ErrorResponse,
  NewProductAnswer,
  NewProductBody,
  ProductList,
  ProductsQuery,
} from '@portal/contracts';
import { badRequest, type CaseClient, type Db } from '@portal/core';
import { assertBuilder } from '../lib/guard';
import { categoryFor, insertProduct, listCategories, listProducts } from './product-repository';

/** GET/POST /builder/products and GET /builder/products/categories (spec 2 §7 'Case builder'). */
export function productRoutes(deps: { db: Db; cases: CaseClient }): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: { mid_id: number; search?: string; limit?: number } }>(
      '/builder/products',
      {
        schema: {
          tags: ['builder'],
          summary: 'Products a MID sells',
          querystring: ProductsQuery,
          response: { 200: ProductList, 403: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertBuilder(ctx, false);
        const q = request.query;
        const merchantId = await deps.cases.midMerchant(ctx, q.mid_id);
        const data = await listProducts(deps.db, {
          tenant: ctx.tenant,
          merchantId,
          midId: q.mid_id,
          search: q.search,
          limit: q.limit ?? 25,
        });
        return { data };
      },
    );

    app.post<{ Body: NewProductBody }>(
      '/builder/products',
      {
        schema: {
          tags: ['builder'],
          summary: 'A new product of a MID',
          body: NewProductBody,
          response: { 200: NewProductAnswer, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertBuilder(ctx, true);
        const b = request.body;
        const merchantId = await deps.cases.midMerchant(ctx, b.mid_id);
        if (!b.name.trim())
          throw badRequest(M.invalid, { fields: [{ id: 'name', errors: [M.productNameRequired] }] });
        const category = await categoryFor(deps.db, ctx.tenant, merchantId, b.category);
        if (!category)
          throw badRequest(M.invalid, { fields: [{ id: 'category', errors: [M.unknownCategory] }] });
        const id = await insertProduct(deps.db, {
          tenant: ctx.tenant,
          merchantId,
          midId: b.mid_id,
          name: b.name.trim(),
          description: b.description?.trim() || null,
          typeId: b.type,
          categoryId: category.id,
          createdBy: ctx.username,
        });
        return { id, name: b.name.trim(), type: b.type };
      },
    );

    app.get<{ Querystring: { search?: string; limit?: number; mid_id?: number } }>(
      '/builder/products/categories',
      {
        schema: {
          tags: ['builder'],
          summary: 'Product categories (the tenant’s, plus the MID’s merchant’s own when mid_id is given)',
          querystring: CategoriesQuery,
          response: { 200: CategoryList, 403: ErrorResponse, 404: ErrorResponse },
        },
      },
      async (request) => {
        const ctx = request.ctx;
        assertBuilder(ctx, false);
        const q = request.query;
        const merchantId = q.mid_id ? await deps.cases.midMerchant(ctx, q.mid_id) : null;
        const data = await listCategories(deps.db, {
          tenant: ctx.tenant,
          merchantId,
          search: q.search,
          limit: q.limit ?? 999,
        });
        return { data };
      },
    );
  };
}

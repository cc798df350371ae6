import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ErrorResponse,
  SAVED_VIEW_MESSAGES,
  SAVED_VIEWS_MAX,
  SavedView,
  SavedViewCreate,
  SavedViewListQuery,
  SavedViewParams,
  SavedViewsResponse,
  SavedViewUpdate,
} from '@portal/contracts';
import { badRequest, conflict, forbidden, notFound, unauthorized, type Queryable } from '@portal/core';
import { isImpersonating, requireUser } from '../lib/context';
import {
  countOwnViews,
  deleteView,
  findOwnView,
  insertView,
  listViews,
  nameTaken,
  updateView,
  type ViewOwner,
} from './saved-view-repository';

const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
};

/** A name as stored: trimmed, never blank. */
function cleanName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed)
    throw badRequest(SAVED_VIEW_MESSAGES.nameEmpty, { fields: [{ field: 'name', message: 'is blank' }] });
  return trimmed;
}

/**
 * GET/POST/PATCH/DELETE /users/saved-views (issue 21). A view is a personal
 * setting, not a change of the portal's data: read-only users may keep views
 * (the gateway lists these calls in its read-only allow-list), but while
 * acting as another user ('Login As') nobody writes views under that user's
 * name, as with the other personal settings (password, own e-mail).
 */
export async function savedViewRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;

  async function caller(request: FastifyRequest, write: boolean, tx: Queryable = db): Promise<ViewOwner> {
    const ctx = requireUser(request);
    if (write && isImpersonating(ctx)) throw forbidden(SAVED_VIEW_MESSAGES.impersonating);
    // The merchant is the user's own (not the context's), so shared views follow the owner's merchant.
    const { rows } = await tx.query<{ merchant_id: string }>(
      `select merchant_id from users.users where tenant = $1 and id = $2 and status_id = 1${write ? ' for update' : ''}`,
      [ctx.tenant, ctx.user_id],
    );
    if (!rows[0]) throw unauthorized();
    return { tenant: ctx.tenant, userId: ctx.user_id, merchantId: Number(rows[0].merchant_id) };
  }

  app.get(
    '/users/saved-views',
    {
      schema: {
        tags: ['saved-views'],
        summary: "The caller's views of a list and the views shared within the caller's merchant",
        querystring: SavedViewListQuery,
        response: { 200: SavedViewsResponse, ...errors },
      },
    },
    async (request) => ({ data: await listViews(db, await caller(request, false), request.query.list) }),
  );

  app.post(
    '/users/saved-views',
    {
      schema: {
        tags: ['saved-views'],
        summary: 'Save the state of a list under a name',
        body: SavedViewCreate,
        response: { 201: SavedView, ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const name = cleanName(body.name);
      const created = await db.transaction(async (tx) => {
        // The user row lock serialises one user's saves, so the cap and the name check hold.
        const who = await caller(request, true, tx);
        if ((await countOwnViews(tx, who, body.list)) >= SAVED_VIEWS_MAX)
          throw conflict(SAVED_VIEW_MESSAGES.tooMany);
        if (await nameTaken(tx, who, body.list, name)) throw conflict(SAVED_VIEW_MESSAGES.nameTaken);
        const id = await insertView(tx, who, {
          list: body.list,
          path: body.path,
          name,
          query: body.query.replace(/^\?/, ''),
          shared: body.shared ?? false,
        });
        return (await findOwnView(tx, who, id))!;
      });
      return reply.status(201).send(created);
    },
  );

  app.patch(
    '/users/saved-views/:id',
    {
      schema: {
        tags: ['saved-views'],
        summary: 'Rename a view or share it (owner only)',
        params: SavedViewParams,
        body: SavedViewUpdate,
        response: { 200: SavedView, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const name = request.body.name === undefined ? undefined : cleanName(request.body.name);
      return db.transaction(async (tx) => {
        const who = await caller(request, true, tx);
        const view = await findOwnView(tx, who, id);
        if (!view) throw notFound(SAVED_VIEW_MESSAGES.notFound);
        if (name !== undefined && (await nameTaken(tx, who, view.list, name, id)))
          throw conflict(SAVED_VIEW_MESSAGES.nameTaken);
        await updateView(tx, who, id, { name, shared: request.body.shared });
        return (await findOwnView(tx, who, id))!;
      });
    },
  );

  app.delete(
    '/users/saved-views/:id',
    {
      schema: {
        tags: ['saved-views'],
        summary: 'Delete a view (owner only)',
        params: SavedViewParams,
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const who = await caller(request, true);
      if (!(await deleteView(db, who, request.params.id))) throw notFound(SAVED_VIEW_MESSAGES.notFound);
      return reply.status(204).send(null);
    },
  );
}

import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ErrorResponse, Id as RowId, type UserItem, type UserListQuery } from '@portal/contracts';
import { notFound } from '@portal/core';
import type { UserServiceState } from '../lib/context';
import { canSee, inSubtree, isProvider, loadActor, merchantOf, type Actor } from './access';
import { toUserItem, userMerchantIds, type UserFilter, type UserItemRow } from './queries';
import { requireTarget } from './service';

/*
 * What the user-administration routes share (one module per action beside
 * this one: list-users-route.ts, export-users-routes.ts, get-user-routes.ts,
 * save-user-routes.ts, lock-and-reset-routes.ts, role-routes.ts,
 * site-permission-routes.ts, mid-permission-routes.ts; routes.ts registers them).
 */

/** The service's Fastify instance with TypeBox typing, as every route module receives it. */
export type UsersApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export const Id = Type.Object({ id: RowId() });
export const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  409: ErrorResponse,
  502: ErrorResponse,
};

/** The users a caller may list, as a SQL filter (scope enforced here as well as at the gateway). */
export async function scopeFilter(
  app: FastifyInstance,
  state: UserServiceState,
  actor: Actor,
  q: UserListQuery,
): Promise<UserFilter> {
  const filter: UserFilter = {
    tenant: actor.tenant,
    merchantIds: null,
    roleId: q.role,
    statusId: q.status_id,
    search: q.search,
  };
  if (actor.user && actor.user.role_name === 'merchant_user') filter.onlyUserId = actor.user.id;
  const root = q.merchant_id;
  if (isProvider(actor) && root === undefined) return filter;
  const candidates = await userMerchantIds(app.deps.db, actor.tenant);
  const ids: number[] = [];
  for (const id of candidates) {
    const visible = isProvider(actor) || (await inSubtree(state, actor, actor.user!.merchant_id, id));
    // merchant_id selects that merchant's users (spec 1 §7: the dashboard's users tile).
    if (visible && (root === undefined || id === root)) ids.push(id);
  }
  filter.merchantIds = ids;
  return filter;
}

export async function withNames(
  state: UserServiceState,
  actor: Actor,
  rows: UserItemRow[],
): Promise<UserItem[]> {
  // A case-service outage leaves the company name empty rather than failing the grid.
  return Promise.all(
    rows.map(async (r) =>
      toUserItem(
        r,
        await merchantOf(state, actor, r.merchant_id).then(
          (m) => m.business_name,
          () => null,
        ),
      ),
    ),
  );
}

export async function visibleTarget(app: FastifyInstance, state: UserServiceState, actor: Actor, id: number) {
  const target = await requireTarget(app, actor, id);
  // Out of scope looks like absent: ids of other merchants' users are not confirmed.
  if (!(await canSee(state, actor, target))) throw notFound('User not found.');
  return target;
}

/** The caller and the user a route names, who must be visible to the caller (else 404). */
export async function actorAndTarget(
  app: FastifyInstance,
  state: UserServiceState,
  request: FastifyRequest,
  id: number,
) {
  const actor = await loadActor(request, app.deps.db);
  return { actor, target: await visibleTarget(app, state, actor, id) };
}

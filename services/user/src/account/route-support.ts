import { Type } from '@sinclair/typebox';
import { ErrorResponse } from '@portal/contracts';
import { forbidden, notFound } from '@portal/core';
import type { UserServiceState } from '../lib/context';
import { canSee, type Actor } from '../users/access';
import { requireTarget } from '../users/service';
import type { UsersApp } from '../users/route-support';

/*
 * What the account routes share (one module per area beside this one:
 * login-history-routes.ts, notification-routes.ts, email-routes.ts,
 * message-routes.ts, banner-routes.ts; routes.ts registers them; their SQL
 * is in the *-repo.ts modules).
 */

export const errors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  502: ErrorResponse,
};
export const noContent = { 204: Type.Null(), ...errors };

/** The signed-in user of the call (403 for a call made without one). */
export function me(actor: Actor) {
  if (!actor.user) throw forbidden('This call needs a signed-in user.');
  return actor.user;
}

export function refuseReadOnly(actor: Actor): void {
  if (actor.readOnly || actor.user?.is_read_only) throw forbidden('Read-only users cannot change data.');
}

/** Oneself, or a user the actor may see (provider staff and admins reading their users' history). */
export async function ownOrVisible(app: UsersApp, state: UserServiceState, actor: Actor, id: number) {
  const target = await requireTarget(app, actor, id);
  if (actor.user?.id !== target.id && !(await canSee(state, actor, target)))
    throw notFound('User not found.');
  return target;
}

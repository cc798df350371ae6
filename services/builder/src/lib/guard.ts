import { BUILDER_MESSAGES as M, CASE_BUILDER_ROLE, type InternalContext } from '@portal/contracts';
import { forbidden, unauthorized } from '@portal/core';

/** A signed-in user holding the case-builder role (spec 2 §6); writes also refuse read-only users. */
export function assertBuilder(
  ctx: InternalContext,
  write: boolean,
): asserts ctx is InternalContext & {
  user_id: number;
} {
  if (ctx.kind !== 'user' || ctx.user_id === null) throw unauthorized();
  if (!ctx.roles.includes(CASE_BUILDER_ROLE)) throw forbidden(M.noRole);
  if (write && ctx.read_only) throw forbidden(M.readOnly);
}

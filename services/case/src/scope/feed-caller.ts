import type { InternalContext } from '@portal/contracts';
import { forbidden } from '@portal/core';

/** Feed ingestion (cases, alerts) is for service-to-service calls and the provider's administrators. */
export function assertFeedCaller(
  ctx: Pick<InternalContext, 'kind' | 'roles' | 'read_only'>,
  messages: { notAllowed: string; readOnly: string },
): void {
  const allowed = ctx.kind === 'system' || (ctx.kind === 'user' && ctx.roles.includes('cb911_admin'));
  if (!allowed) throw forbidden(messages.notAllowed);
  if (ctx.read_only) throw forbidden(messages.readOnly);
}

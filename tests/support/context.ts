import { randomUUID } from 'node:crypto';
import { INTERNAL_CONTEXT_HEADER, type InternalContext } from '@portal/contracts';
import { signContext } from '@portal/core';

/** Signs an internal context as the gateway would, for calling a service directly in a test. */
export function contextHeaders(secret: string, context: Partial<Omit<InternalContext, 'exp'>> = {}) {
  const full: Omit<InternalContext, 'exp'> = {
    tenant: 'acme',
    user_id: null,
    actor_id: null,
    username: null,
    roles: [],
    merchant_id: null,
    read_only: false,
    mids_allowed: [],
    mids_excluded: [],
    request_id: randomUUID(),
    kind: 'system',
    ...context,
  };
  return { [INTERNAL_CONTEXT_HEADER]: signContext(full, secret) };
}

import { randomUUID } from 'node:crypto';
import {
  DEMO_TENANTS,
  DEMO_USERS,
  demoMerchantId,
  demoUserId,
  INTERNAL_CONTEXT_HEADER,
  type InternalContext,
} from '@portal/contracts';
import { contextWithoutUser, signContext } from '@portal/core';

/** Signs an internal context as the gateway would, for calling a service directly in a test. */
export function contextHeaders(secret: string, context: Partial<Omit<InternalContext, 'exp'>> = {}) {
  const full: Omit<InternalContext, 'exp'> = {
    ...contextWithoutUser('acme', randomUUID(), 'system'),
    ...context,
  };

  return { [INTERNAL_CONTEXT_HEADER]: signContext(full, secret) };
}

/** The context the gateway signs for a demo user (DEMO_USERS) of a demo tenant (acme by default). */
export function demoUserContext(username: string, tenant = DEMO_TENANTS[0]!): Partial<InternalContext> {
  const u = DEMO_USERS.find((x) => x.username === username);
  if (!u) throw new Error(`no demo user ${username}`);
  return {
    tenant: tenant.id,
    kind: 'user',
    user_id: demoUserId(tenant, u),
    actor_id: demoUserId(tenant, u),
    username: u.username,
    roles: [u.role],
    merchant_id: demoMerchantId(tenant, u.merchant),
  };
}

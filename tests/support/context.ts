import { randomUUID } from 'node:crypto';
import { INTERNAL_CONTEXT_HEADER, type InternalContext } from '@portal/contracts';
import { contextWithoutUser, signContext } from '@portal/core';

/** Signs an internal context as the gateway would, for calling a service directly in a test. */
export function contextHeaders(secret: string, context: Partial<Omit<InternalContext, 'exp'>> = {}) {
  const full: Omit<InternalContext, 'exp'> = {
    ...contextWithoutUser('acme', randomUUID(), 'system'),
    ...context,
  };

  return { [INTERNAL_CONTEXT_HEADER]: signContext(full, secret) };
}

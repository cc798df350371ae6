import type { Env } from '@portal/core';
import {
  connectorSecretBox,
  stripeConnector,
  type ProcessorConnector,
  type SecretBox,
} from '@portal/connectors';

/**
 * The connector of each processor, made from the process's env: the API base
 * comes from STRIPE_API_BASE (an operator's or a test's setting), never from a
 * request or a connection row, so no caller can point the server elsewhere.
 */
const made = new Map<string, ProcessorConnector>();

export function connectorFor(env: Env, processor: string): ProcessorConnector {
  if (processor !== 'stripe') throw new Error(`no connector for processor '${processor}'`);
  const key = `${processor}\u0000${env.STRIPE_API_BASE ?? ''}`;
  let connector = made.get(key);
  if (!connector) {
    connector = stripeConnector({ apiBase: env.STRIPE_API_BASE });
    made.set(key, connector);
  }
  return connector;
}

export function secretBox(env: Env): SecretBox {
  return connectorSecretBox(env);
}

/** The additional data each sealed secret is bound to: its tenant, its connection and what it is. */
export const sealedFor = (tenant: string, connectionId: string, what: 'api_key' | 'webhook_secret') =>
  `${tenant}:${connectionId}:${what}`;

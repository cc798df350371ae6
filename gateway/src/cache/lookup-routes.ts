import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayCore } from '../core';
import { contextFor } from '../proxy/headers';
import { loadFromCase, sendAnswer } from './case-answer';
import { canonicalQuery } from './canonical-query';

export const lookupPrefix = (tenant: string) => `gw:lookup:${tenant}:`;

/** Reference lists, the same for every user of a tenant. Any other /cm/gen/* (e.g. descriptors, scoped to the user's merchants) is cached per user. */
const TENANT_WIDE = new Set([
  'countries',
  'processors',
  'rc',
  'rc-categories',
  'cycles',
  'currencies',
  'cctypes',
  'status-groups',
  'statuses',
  'verdicts',
  'service-levels',
  'sources',
  'deflectors',
]);

/**
 * GET /api/cm/gen/* (countries, currencies, reason codes, ...): reference
 * data cached per tenant (per user for scoped ones) and query for 5 minutes, single-flight,
 * dropped on `{tenant, kind:'lookup'}`. Only 200 answers are cached.
 */
export async function lookupRoutes(app: FastifyInstance, gw: GatewayCore) {
  app.get('/api/cm/gen/*', (request, reply) => {
    const tenant = request.tenant!;
    const q = request.url.indexOf('?');
    const path = (q === -1 ? request.url : request.url.slice(0, q)).slice('/api'.length);
    const query = canonicalQuery(request.url);
    const name = path.slice('/cm/gen/'.length);
    const scope = TENANT_WIDE.has(name) ? 'all' : `u${request.call!.effective!.id}`;
    const key = `${lookupPrefix(tenant.config.id)}${scope}:${path}?${query}`;
    // A fresh in-process copy is answered without a promise (the hot path of a cached lookup).
    const local = gw.lookups.peek(key);
    if (local) return sendAnswer(reply, local.value, local.result);
    return load(request, reply, key, path, query);
  });

  async function load(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    path: string,
    query: string,
  ) {
    const tenant = request.tenant!;
    const timeoutMs = tenant.config.upstream_timeout_ms ?? gw.deps.env.UPSTREAM_TIMEOUT_MS;
    const { value, result } = await gw.lookups.get(key, () =>
      loadFromCase(gw, contextFor(request), query ? `${path}?${query}` : path, timeoutMs),
    );
    return sendAnswer(reply, value, result);
  }
}

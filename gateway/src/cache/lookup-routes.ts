import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CacheResult } from './cached-source';
import type { GatewayCore } from '../core';
import { errors } from '../errors';
import { contextFor } from '../proxy/headers';
import { callUpstream, upstreamFailure, type UpstreamAnswer } from '../upstreams/pools';

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

/** Canonical forms of the query strings seen (bounded, emptied when full): parsing and sorting once. */
const canonicalQueries = new Map<string, string>();
const CANONICAL_QUERIES_MAX = 10_000;

/** Same query in another order is the same lookup. */
function canonicalQuery(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return '';
  const raw = url.slice(q + 1);
  let canonical = canonicalQueries.get(raw);
  if (canonical === undefined) {
    const params = new URLSearchParams(raw);
    params.sort();
    canonical = params.toString();
    if (canonicalQueries.size >= CANONICAL_QUERIES_MAX) canonicalQueries.clear();
    canonicalQueries.set(raw, canonical);
  }
  return canonical;
}

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
    if (local) return answer(reply, local.value, local.result);
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
    const { value, result } = await gw.lookups.get(key, async (): Promise<UpstreamAnswer> => {
      try {
        return await callUpstream(gw.pools.case, gw.deps.contextSecret, {
          method: 'GET',
          path: query ? `${path}?${query}` : path,
          context: contextFor(request),
          timeoutMs,
        });
      } catch (error) {
        const status = upstreamFailure(error);
        gw.metrics.upstreamErrors.inc({ upstream: 'case', status: String(status) });
        throw status === 503
          ? errors.upstreamDown()
          : status === 504
            ? errors.upstreamTimeout()
            : errors.upstreamBad();
      }
    });
    return answer(reply, value, result);
  }
}

/**
 * The UTF-8 bytes of each cached answer, encoded once: a cached lookup is sent as the same Buffer
 * (the profile of issue 11.6: encoding a list of 250 countries per response was a tenth of a hit's CPU).
 */
const encodedBodies = new WeakMap<UpstreamAnswer, Buffer>();

function answer(reply: FastifyReply, value: UpstreamAnswer, result: CacheResult) {
  let body = encodedBodies.get(value);
  if (body === undefined) {
    body = Buffer.from(value.body, 'utf8');
    encodedBodies.set(value, body);
  }
  reply.header('x-cache', result);
  return reply
    .status(value.status)
    .type(value.contentType || 'application/json')
    .send(body);
}

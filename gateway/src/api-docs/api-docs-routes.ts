import type { FastifyInstance } from 'fastify';
import type { ServiceName } from '@portal/core';
import type { GatewayCore } from '../core';
import { errors } from '../errors';
import {
  API_DOC_NAMES,
  gatewayDocument,
  publicDocument,
  type ApiDocName,
  type OpenApiDocument,
} from './openapi-documents';

/** A service's document changes only with a deploy: kept this long per gateway process. */
const TTL_MS = 5 * 60_000;
const FETCH_TIMEOUT_MS = 5000;

/**
 * GET /api/openapi/{case|user|docs|builder|gateway}: the portal's API
 * documentation (the API Documentation screen). Signed-in users holding the
 * resource-api-documentation feature only (policy table).
 */
export async function apiDocsRoutes(app: FastifyInstance, gw: GatewayCore) {
  const cached = new Map<ServiceName, { at: number; doc: OpenApiDocument }>();
  const gateway = gatewayDocument();

  async function serviceDocument(service: ServiceName): Promise<OpenApiDocument> {
    const hit = cached.get(service);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.doc;
    let answer;
    try {
      // /openapi.json is public on every service: no internal context needed.
      answer = await gw.pools[service].request({
        method: 'GET',
        path: '/openapi.json',
        headersTimeout: FETCH_TIMEOUT_MS,
        bodyTimeout: FETCH_TIMEOUT_MS,
      });
    } catch (error) {
      app.log.warn({ err: error, service }, 'openapi document unavailable');
      throw errors.upstreamBad('The API documentation is unavailable. Please try again later.');
    }
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      throw errors.upstreamBad('The API documentation is unavailable. Please try again later.');
    }
    const doc = publicDocument(service, (await answer.body.json()) as OpenApiDocument);
    cached.set(service, { at: Date.now(), doc });
    return doc;
  }

  app.get<{ Params: { service: string } }>('/api/openapi/:service', async (request, reply) => {
    const name = request.params.service as ApiDocName;
    if (!API_DOC_NAMES.includes(name)) throw errors.notFound();
    reply.header('cache-control', 'private, max-age=300');
    return name === 'gateway' ? gateway : serviceDocument(name);
  });
}

import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { errors } from '../errors';
import type { GatewayCore } from '../core';
import { tenantBootstrap } from './bootstrap';

const TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  webm: 'video/webm',
  mp4: 'video/mp4',
};

/** The policy of a tenant's logo or favicon when opened as a document. */
const ASSET_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'";

/** GET /api/tenant (the bootstrap of the Host's tenant) and the tenants' logo/favicon and help video files. */
export async function tenantRoutes(app: FastifyInstance, _gw: GatewayCore) {
  app.get('/api/tenant', async (request, reply) => {
    if (!request.tenant) throw errors.unknownTenant();
    reply.header('cache-control', 'no-cache');
    return tenantBootstrap(request.tenant);
  });

  // Only files a tenant's configuration names are served (no directory walking), and only on that
  // tenant's own host: another tenant's logo on acme.localhost is a 404, like an unknown file.
  app.get<{ Params: { tenant: string; file: string } }>(
    '/tenant-assets/:tenant/:file',
    async (request, reply) => {
      request.routeLabel = 'tenant-assets';
      const { file } = request.params;
      const tenant = request.tenant;
      const c = tenant && tenant.config.id === request.params.tenant ? tenant.config : undefined;
      const declared =
        c &&
        [
          c.branding.logo,
          c.branding.favicon,
          c.variant.look.logo,
          c.variant.look.favicon,
          ...c.help_topics.flatMap((h) => (h.video ? [h.video] : [])),
        ].includes(file);
      const path = tenant && declared ? join(tenant.assetDir, file) : undefined;
      if (!path || !existsSync(path)) throw errors.notFound();
      reply.header('cache-control', 'public, max-age=3600');
      reply.header('cross-origin-resource-policy', 'same-origin');
      // An SVG opened directly is a document: no script, nothing loaded, no framing; its own
      // inline styles only. (As an <img> it runs no script anyway.)
      reply.header('content-security-policy', ASSET_CSP);
      reply.header('x-content-type-options', 'nosniff');
      return reply
        .type(TYPES[file.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream')
        .send(createReadStream(path));
    },
  );
}

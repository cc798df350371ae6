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
};

/** GET /api/tenant (the bootstrap of the Host's tenant) and the tenants' logo/favicon files. */
export async function tenantRoutes(app: FastifyInstance, gw: GatewayCore) {
  app.get('/api/tenant', async (request, reply) => {
    if (!request.tenant) throw errors.unknownTenant();
    reply.header('cache-control', 'no-cache');
    return tenantBootstrap(request.tenant);
  });

  // Only files a tenant's configuration names are served: no directory walking.
  app.get<{ Params: { tenant: string; file: string } }>(
    '/tenant-assets/:tenant/:file',
    async (request, reply) => {
      request.routeLabel = 'tenant-assets';
      const tenant = gw.tenants.get(request.params.tenant);
      const { file } = request.params;
      const c = tenant?.config;
      const declared =
        c &&
        [c.branding.logo, c.branding.favicon, c.variant.look.logo, c.variant.look.favicon].includes(file);
      const path = tenant && declared ? join(tenant.assetDir, file) : undefined;
      if (!path || !existsSync(path)) throw errors.notFound();
      reply.header('cache-control', 'public, max-age=3600');
      reply.header('cross-origin-resource-policy', 'same-origin');
      return reply
        .type(TYPES[file.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream')
        .send(createReadStream(path));
    },
  );
}

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { GatewayCore } from '../core';
import { notFoundPage } from '../pipeline/pipeline';
import { IndexPages } from './index-html';
import { pageSecurityHeaders } from './security-headers';

const HAS_EXTENSION = /\.[a-z0-9]+$/i;

/**
 * The web app: hashed /assets/* immutable for a year, index.html per tenant
 * (no-store, CSP nonce) for every other GET without a file extension. A
 * missing asset is a 404, never HTML.
 */
export async function webRoutes(app: FastifyInstance, gw: GatewayCore) {
  const webDist = resolve(gw.deps.env.WEB_DIST_DIR);
  const pages = new IndexPages(join(webDist, 'index.html'));
  const assets = join(webDist, 'assets');
  if (existsSync(assets)) {
    await app.register(fastifyStatic, {
      root: assets,
      prefix: '/assets/',
      // wildcard: a rebuilt web app's new file names are served without a restart.
      wildcard: true,
      immutable: true,
      maxAge: '365d',
      index: false,
      dotfiles: 'deny',
    });
  } else {
    gw.deps.log.warn({ webDist }, 'web app not built: pages fall back to a placeholder');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path === '/api' || request.method !== 'GET' || HAS_EXTENSION.test(path)) {
      request.routeLabel = 'not-found';
      return reply.status(404).send({
        statusCode: 404,
        error: 'Not Found',
        message: path.startsWith('/api') ? `No API route ${request.method} ${path}` : 'Not found.',
      });
    }
    request.routeLabel = 'page';
    // Page loads and unknown paths sit behind a per-IP limit too.
    gw.limits.check('page-ip', request, reply);
    const tenant = request.tenant;
    if (!tenant) return notFoundPage(reply);
    const nonce = randomBytes(16).toString('base64');
    pageSecurityHeaders(request, reply, nonce, tenant.config.alerts_embed_host);
    return reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(pages.render(tenant, nonce));
  });
}

import type { FastifyPluginAsync } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  Downloadable,
  DOWNLOAD_MESSAGES,
  DOWNLOADABLE_AREAS,
  DownloadableQuery,
  ErrorResponse,
} from '@portal/contracts';
import { badRequest, notFound } from '@portal/core';
import { parseObjectKey, type ObjectStore } from '@portal/storage';
import { assertUser } from '../representment/representment-routes';

/**
 * GET /docs/downloadable?loc= (spec 2 §2.10, §7): the download page's link.
 *
 * `loc` is an object-store key as the store makes them,
 * `{tenant}/{area}/{uuid}/{filename}`, in an area the page serves
 * (DOWNLOADABLE_AREAS: export files and case-updater results, whose links are
 * mailed as `/download?loc={key}`). The uuid makes a key unguessable; the
 * tenant must be the caller's. A missing or malformed loc, or another area,
 * is 400 'Invalid url provided.'; another tenant's key or a key that names
 * nothing is 404. The answer is a short-lived signed link and the file name.
 */
export function downloadableRoutes(deps: { store: ObjectStore }): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: Static<typeof DownloadableQuery> }>(
      '/docs/downloadable',
      {
        schema: {
          tags: ['documents'],
          querystring: DownloadableQuery,
          response: { 200: Downloadable, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
        },
        attachValidation: true,
      },
      async (request) => {
        const ctx = request.ctx;
        assertUser(ctx);
        const loc = request.validationError ? undefined : request.query.loc?.trim();
        const parsed = loc ? parseObjectKey(loc) : null;
        if (!loc || !parsed || !(DOWNLOADABLE_AREAS as readonly string[]).includes(parsed.area))
          throw badRequest(DOWNLOAD_MESSAGES.invalidUrl);
        if (parsed.tenant !== ctx.tenant || !(await deps.store.head(ctx.tenant, loc)))
          throw notFound(DOWNLOAD_MESSAGES.notFound);
        const url = await deps.store.downloadLink(ctx.tenant, loc, { filename: parsed.filename });
        return { url, filename: parsed.filename };
      },
    );
  };
}

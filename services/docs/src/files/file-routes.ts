import type { FastifyPluginAsync } from 'fastify';
import { DOCS_MESSAGES, ErrorResponse, SignedFileQuery } from '@portal/contracts';
import { badRequest, forbidden, HttpError, notFound, type Db } from '@portal/core';
import { attachmentDisposition, DOWNLOAD_CSP } from '@portal/storage';
import type { DocumentStore } from '../store/document-store';
import { representmentByKey } from '../representment/representment-repository';
import { verifyFileLink } from './signed-links';

/** Keys are ours (`representments/{tenant}/{case}/{name}.pdf`): plain segments only. */
const KEY = /^[a-z0-9][a-z0-9_.-]*(\/[a-z0-9][a-z0-9_.-]*){0,5}$/i;

interface FileRouteDeps {
  db: Db;
  store: DocumentStore;
  linkSecret: string;
}

/**
 * GET /docs/files/{key}?exp=&sig=: a file by signed link. The gateway lets it
 * through without a bearer token (a link opened in a new tab carries none)
 * but with the tenant of the Host in the signed context: the link's signature
 * covers tenant, key and expiry, so another tenant's host, an edited key or a
 * late click all fail.
 */
export function fileRoutes(deps: FileRouteDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { '*': string }; Querystring: SignedFileQuery }>(
      '/docs/files/*',
      {
        schema: {
          tags: ['documents'],
          querystring: SignedFileQuery,
          response: { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 410: ErrorResponse },
        },
      },
      async (request, reply) => {
        const key = request.params['*'];
        if (!KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..'))
          throw badRequest('The file key is not valid.');
        const tenant = request.ctx.tenant;
        const check = verifyFileLink(deps.linkSecret, tenant, key, request.query.exp, request.query.sig);
        if (!check.ok)
          throw forbidden(check.reason === 'expired' ? DOCS_MESSAGES.linkExpired : DOCS_MESSAGES.linkInvalid);
        const doc = await representmentByKey(deps.db, tenant, key);
        if (doc?.is_archived) throw new HttpError(410, DOCS_MESSAGES.archived);
        const file = doc && (await deps.store.get(tenant, key));
        if (!doc || !file) throw notFound('The document was not found.');
        const maxAge = Math.max(0, request.query.exp - Math.floor(Date.now() / 1000));
        return reply
          .header('content-type', file.contentType)
          .header('content-length', file.size)
          .header('content-disposition', attachmentDisposition(doc.filename))
          .header('cache-control', `private, max-age=${maxAge}`)
          .header('content-security-policy', DOWNLOAD_CSP)
          .header('x-content-type-options', 'nosniff')
          .send(file.content);
      },
    );
  };
}

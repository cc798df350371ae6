import type { FastifyPluginAsync } from 'fastify';
import { ServiceClient } from '@portal/core';
import { fileRoutes } from './files/file-routes';
import { objectRoutes } from './objects/object-routes';
import { resolveDocsLinkSecret } from './files/signed-links';
import { CaseScope } from './representment/case-scope';
import { representmentRoutes } from './representment/representment-routes';
import { PgDocumentStore } from './store/document-store';

/** Docs service routes (/docs/*): representment documents and their signed downloads. */
export const docsRoutes: FastifyPluginAsync = async (app) => {
  const { env, db, contextSecret } = app.deps;
  const linkSecret = resolveDocsLinkSecret(env);
  const store = new PgDocumentStore(db);
  const scope = new CaseScope(new ServiceClient(env.CASE_SERVICE_URL, contextSecret));
  await app.register(representmentRoutes({ db, scope, linkSecret }));
  await app.register(fileRoutes({ db, store, linkSecret }));
  await app.register(objectRoutes({ linkSecret }));
};

import type { FastifyPluginAsync } from 'fastify';
import { CaseClient, ServiceClient } from '@portal/core';
import { openObjectStore } from '@portal/storage';
import { BuilderClient } from './builder/builder-client';
import { builderUploadRoutes } from './builder/builder-upload-routes';
import { downloadableRoutes } from './downloads/downloadable-routes';
import { fileRoutes } from './files/file-routes';
import { issuerDocRoutes } from './issuer/issuer-doc-routes';
import { previewRoutes } from './preview/preview-routes';
import { objectRoutes } from './objects/object-routes';
import { resolveDocsLinkSecret } from './files/signed-links';
import { representmentRoutes } from './representment/representment-routes';
import { PgDocumentStore } from './store/document-store';
import { uploadRoutes } from './representment/upload-routes';
import { stripeSubmissionRoutes } from './representment/stripe-submission-routes';
import { CaseLookups } from './templates/case-lookups';
import { templateRoutes } from './templates/template-routes';

/** Docs service routes (/docs/*): representment documents and their signed downloads. */
export const docsRoutes: FastifyPluginAsync = async (app) => {
  const { env, db, contextSecret } = app.deps;
  const linkSecret = resolveDocsLinkSecret(env);
  const store = new PgDocumentStore(db);
  const caseService = new ServiceClient(env.CASE_SERVICE_URL, contextSecret);
  const cases = new CaseClient(caseService, db);
  // One object store for the process (design §10); the seed step copies the demo files into it.
  const objects = await openObjectStore(env, app.deps.log, { linkSecret });
  app.addHook('onClose', async () => objects.close());
  const lookups = new CaseLookups(caseService);
  await app.register(representmentRoutes({ db, cases, linkSecret, objects }));
  await app.register(uploadRoutes({ db, cases, store: objects, tenantConfigDir: env.TENANT_CONFIG_DIR }));
  // A case's submission to its processor (issue 32): the 'Stripe submission' panel, the draft's submit.
  await app.register(stripeSubmissionRoutes({ db, cases }));
  await app.register(fileRoutes({ db, store, linkSecret }));
  await app.register(objectRoutes({ linkSecret, store: objects }));
  await app.register(templateRoutes({ db, store: objects, lookups }));
  await app.register(issuerDocRoutes({ db, store: objects, lookups }));
  await app.register(downloadableRoutes({ store: objects }));
  // The case builder's documents (issue 13): the representment upload's modules, plus a case summary.
  const builder = new BuilderClient(new ServiceClient(env.BUILDER_SERVICE_URL, contextSecret));
  await app.register(
    builderUploadRoutes({ db, cases, store: objects, builder, tenantConfigDir: env.TENANT_CONFIG_DIR }),
  );
  // See the evidence before it goes (issue 34): packet preview, checks, and the compiled packet's pages.
  await app.register(
    previewRoutes({ db, cases, store: objects, builder, tenantConfigDir: env.TENANT_CONFIG_DIR }),
  );
};

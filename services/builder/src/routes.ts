import type { FastifyPluginAsync } from 'fastify';
import { CaseClient, ServiceClient } from '@portal/core';
import { caseRoutes } from './cases/case-routes';
import { docTypeRoutes } from './doctypes/doctype-routes';
import { evidenceFieldsRoutes } from './evidence-fields/evidence-fields-routes';
import { productRoutes } from './products/product-routes';

/** Builder service routes (/builder/*): the case builder (dispute assistant), spec 2 §2.7. */
export const builderRoutes: FastifyPluginAsync = async (app) => {
  const { env, db, contextSecret } = app.deps;
  const cases = new CaseClient(new ServiceClient(env.CASE_SERVICE_URL, contextSecret), db);
  await app.register(caseRoutes({ db, cases }));
  await app.register(productRoutes({ db, cases }));
  await app.register(docTypeRoutes({ db, cases }));
  // The docs service's transport job reads a case's answers for a processor's evidence fields (issue 32).
  await app.register(evidenceFieldsRoutes({ db, cases }));
};

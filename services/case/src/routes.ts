import type { FastifyPluginAsync } from 'fastify';
import { caseRoutes as caseFeatureRoutes } from './cases/case-routes';
import { commentRoutes } from './cases/comment-routes';
import { dashboardRoutes } from './dashboard/dashboard-routes';
import { exportRoutes } from './exports/export-routes';
import { lookupRoutes } from './lookups/lookup-routes';
import { merchantRoutes } from './merchants/merchant-routes';
import { reviewRoutes } from './review/review-routes';

/** Case service routes (/cm/*, /ert/*), one plugin per feature. */
export const caseRoutes: FastifyPluginAsync = async (app) => {
  await app.register(lookupRoutes);
  await app.register(merchantRoutes);
  await app.register(dashboardRoutes);
  await app.register(exportRoutes);
  await app.register(caseFeatureRoutes);
  await app.register(commentRoutes);
  await app.register(reviewRoutes);
};

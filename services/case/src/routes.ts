import type { FastifyPluginAsync } from 'fastify';
import { alertRoutes } from './alerts/alert-routes';
import { bulkRoutes } from './bulk-close/bulk-routes';
import { caseRoutes as caseFeatureRoutes } from './cases/case-routes';
import { commentRoutes } from './cases/comment-routes';
import { dashboardRoutes } from './dashboard/dashboard-routes';
import { exportRoutes } from './exports/export-routes';
import { lookupRoutes } from './lookups/lookup-routes';
import { merchantRoutes } from './merchants/merchant-routes';
import { merchantAdminRoutes } from './merchant-admin/merchant-admin-routes';
import { midRoutes } from './mids/mid-routes';
import { rdrRoutes } from './merchant-admin/rdr-routes';
import { midPermissionRoutes } from './mid-permissions/mid-permission-routes';
import { reviewRoutes } from './review/review-routes';
import { remedyRoutes } from './remedy/remedy-routes';
import { onboardingRoutes } from './onboarding/onboarding-routes';
import { caseUpdaterRoutes } from './case-updater/updater-routes';
import { ertRoutes } from './ert/ert-routes';

/** Case service routes (/cm/*, /ert/*), one plugin per feature. */
export const caseRoutes: FastifyPluginAsync = async (app) => {
  await app.register(lookupRoutes);
  await app.register(merchantRoutes);
  await app.register(merchantAdminRoutes);
  await app.register(midRoutes);
  await app.register(rdrRoutes);
  await app.register(midPermissionRoutes);
  await app.register(dashboardRoutes);
  await app.register(exportRoutes);
  await app.register(caseFeatureRoutes);
  await app.register(commentRoutes);
  await app.register(reviewRoutes);
  await app.register(alertRoutes);
  await app.register(bulkRoutes);
  await app.register(remedyRoutes);
  await app.register(onboardingRoutes);
  await app.register(caseUpdaterRoutes);
  await app.register(ertRoutes);
};

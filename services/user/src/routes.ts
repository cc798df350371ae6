import type { FastifyPluginAsync } from 'fastify';
import cookie from '@fastify/cookie';
import { scheduleHousekeeping } from './auth/housekeeping';
import { authRoutes } from './auth/routes';
import { ensureDemoSsoKeys } from './auth/sso';
import { createState } from './lib/context';
import { accountRoutes } from './account/routes';
import { profileRoutes } from './profile/routes';
import { userRoutesAdmin } from './users/routes';
import { usernamesTakenRoute } from './users/usernames-taken';
import { ROLE_ROWS } from './seed/matrix';
import { syncCatalogue } from './seed/seed';
import { webhookRoutes } from './webhooks/webhook-routes';
import { featureCatalogueRoute } from './features/feature-catalogue';
import { auditRoutes } from './audit/audit-routes';
import { scheduleReminders } from './reminders/reminder-jobs';
import { timeZoneRoutes } from './reminders/time-zone-routes';
import { accountSetupRoutes } from './account-setup/account-setup-routes';
import { savedViewRoutes } from './saved-views/saved-view-routes';
import { apiKeyRoutes } from './api-keys/api-key-routes';
import { apiKeyResolveRoute } from './api-keys/resolve-route';

/** User service routes (/users/*), one module per feature. */
export const userRoutes: FastifyPluginAsync = async (app) => {
  await app.register(cookie);
  // Reference data must exist even when demo data is not seeded (SEED_SCALE=none).
  const roles = await app.deps.db.query<{ n: number }>('select count(*)::int as n from users.roles');
  if ((roles.rows[0]?.n ?? 0) < ROLE_ROWS.length) await app.deps.db.transaction((tx) => syncCatalogue(tx));
  const state = await createState(app);
  await ensureDemoSsoKeys(app.deps.db, app.deps.env, app.deps.log);
  await authRoutes(app, state);
  await profileRoutes(app, state);
  await userRoutesAdmin(app, state);
  await accountRoutes(app, state);
  await app.register(usernamesTakenRoute);
  await app.register(featureCatalogueRoute);
  await webhookRoutes(app);
  await auditRoutes(app, state);
  await timeZoneRoutes(app);
  await accountSetupRoutes(app);
  await savedViewRoutes(app);
  await apiKeyRoutes(app, state);
  await apiKeyResolveRoute(app, state);
  scheduleHousekeeping(app);
  scheduleReminders(app);
};

import type { ServiceDefinition } from '@portal/core';
import { JWKS_PATH } from './auth/routes';
import { userRoutes } from './routes';

export { userMigrations } from './migrations';
export { seedUser } from './seed/seed';
export { WEBHOOK_JOBS } from './webhooks/delivery-jobs';
export { REMINDER_JOBS } from './reminders/reminder-jobs';
export { USER_EXPORT_JOBS } from './users/mailed-export';
export { mintSsoToken, demoSsoKeyFile, demoSsoIssuer, demoSsoAudience } from './auth/sso';
export { JWKS_PATH };

export const userService: ServiceDefinition = {
  name: 'user',
  title: 'User service',
  routes: userRoutes,
  // The gateway fetches the access-token keys without a context.
  publicPaths: [JWKS_PATH],
};
export { verifyAccessToken } from './auth/verify';

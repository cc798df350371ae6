import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { UserServiceState } from '../lib/context';
import { exportUsersRoutes } from './export-users-routes';
import { getUserRoutes } from './get-user-routes';
import { listUsersRoute } from './list-users-route';
import { lockAndResetRoutes } from './lock-and-reset-routes';
import { midPermissionRoutes } from './mid-permission-routes';
import { roleRoutes } from './role-routes';
import { saveUserRoutes } from './save-user-routes';
import { sitePermissionRoutes } from './site-permission-routes';

/** User administration (spec 3): one module per action, their shared helpers in route-support.ts. */
export async function userRoutesAdmin(base: FastifyInstance, state: UserServiceState) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  listUsersRoute(app, state);
  exportUsersRoutes(app, state);
  getUserRoutes(app, state);
  saveUserRoutes(app, state);
  lockAndResetRoutes(app, state);
  roleRoutes(app, state);
  sitePermissionRoutes(app, state);
  midPermissionRoutes(app, state);
}

import type { Db, ServiceDefinition } from '@portal/core';
import { userRoutes } from './routes';

export { userMigrations } from './migrations';

export const userService: ServiceDefinition = {
  name: 'user',
  title: 'User service',
  routes: userRoutes,
};

/** Deterministic demo data of the user service. */
export async function seedUser(_db: Db): Promise<void> {}

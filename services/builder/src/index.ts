import type { Db, ServiceDefinition } from '@portal/core';
import { builderRoutes } from './routes';

export { builderMigrations } from './migrations';

export const builderService: ServiceDefinition = {
  name: 'builder',
  title: 'Builder service',
  routes: builderRoutes,
};

/** Deterministic demo data of the builder service. */
export async function seedBuilder(_db: Db): Promise<void> {}

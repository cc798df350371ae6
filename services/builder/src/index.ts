import type { ServiceDefinition } from '@portal/core';
import { builderRoutes } from './routes';

export { builderMigrations } from './migrations';
export { seedBuilder } from './seed';

export const builderService: ServiceDefinition = {
  name: 'builder',
  title: 'Builder service',
  routes: builderRoutes,
};

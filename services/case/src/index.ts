import type { ServiceDefinition } from '@portal/core';
import { caseRoutes } from './routes';

export { caseMigrations } from './migrations';
export { seedCases } from './seed/index';

export const caseService: ServiceDefinition = {
  name: 'case',
  title: 'Case service',
  routes: caseRoutes,
};

import type { Db, ServiceDefinition } from '@portal/core';
import { docsRoutes } from './routes';

export { docsMigrations } from './migrations';

export const docsService: ServiceDefinition = {
  name: 'docs',
  title: 'Docs service',
  routes: docsRoutes,
};

/** Deterministic demo data of the docs service. */
export async function seedDocs(_db: Db): Promise<void> {}

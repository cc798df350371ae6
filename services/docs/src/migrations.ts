import type { ServiceMigrations } from '@portal/core';

export const docsMigrations: ServiceMigrations = {
  schema: 'docs',
  migrations: [],
};

import type { ServiceMigrations } from '@portal/core';

export const builderMigrations: ServiceMigrations = {
  schema: 'builder',
  migrations: [],
};

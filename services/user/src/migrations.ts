import type { ServiceMigrations } from '@portal/core';

export const userMigrations: ServiceMigrations = {
  schema: 'users',
  migrations: [],
};

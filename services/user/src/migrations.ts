import type { ServiceMigrations } from '@portal/core';
import identity from '../migrations/001_identity.sql';

export const userMigrations: ServiceMigrations = {
  schema: 'users',
  migrations: [{ version: 1, name: 'identity', sql: identity }],
};

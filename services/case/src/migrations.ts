import type { ServiceMigrations } from '@portal/core';
import m001 from '../migrations/001_tenants.sql';

export const caseMigrations: ServiceMigrations = {
  schema: 'cases',
  migrations: [{ version: 1, name: '001_tenants', sql: m001 }],
};

import type { ServiceMigrations } from '@portal/core';
import m001 from '../migrations/001_builder.sql';

export const builderMigrations: ServiceMigrations = {
  schema: 'builder',
  migrations: [{ version: 1, name: '001_builder', sql: m001 }],
};

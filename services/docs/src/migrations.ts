import type { ServiceMigrations } from '@portal/core';
import m001 from '../migrations/001_representments.sql';

export const docsMigrations: ServiceMigrations = {
  schema: 'docs',
  migrations: [{ version: 1, name: '001_representments', sql: m001 }],
};

import type { ServiceMigrations } from '@portal/core';
import m001 from '../migrations/001_reference.sql';
import m002 from '../migrations/002_merchants.sql';
import m003 from '../migrations/003_cases.sql';
import m004 from '../migrations/004_review.sql';
import m005 from '../migrations/005_merchant_features.sql';

export const caseMigrations: ServiceMigrations = {
  schema: 'cases',
  migrations: [
    { version: 1, name: '001_reference', sql: m001 },
    { version: 2, name: '002_merchants', sql: m002 },
    { version: 3, name: '003_cases', sql: m003 },
    { version: 4, name: '004_review', sql: m004 },
    { version: 5, name: '005_merchant_features', sql: m005 },
  ],
};

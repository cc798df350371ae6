import type { ServiceMigrations } from '@portal/core';
import m001 from '../migrations/001_reference.sql';
import m002 from '../migrations/002_merchants.sql';
import m003 from '../migrations/003_cases.sql';
import m004 from '../migrations/004_review.sql';
import m005 from '../migrations/005_merchant_features.sql';
import m007 from '../migrations/007_issuer_docs.sql';
import m008 from '../migrations/008_case_comments.sql';
import m010 from '../migrations/010_representment_status.sql';

export const caseMigrations: ServiceMigrations = {
  schema: 'cases',
  migrations: [
    { version: 1, name: '001_reference', sql: m001 },
    { version: 2, name: '002_merchants', sql: m002 },
    { version: 3, name: '003_cases', sql: m003 },
    { version: 4, name: '004_review', sql: m004 },
    { version: 5, name: '005_merchant_features', sql: m005 },
    { version: 7, name: '007_issuer_docs', sql: m007 },
    { version: 8, name: '008_case_comments', sql: m008 },
    { version: 10, name: '010_representment_status', sql: m010 },
  ],
};

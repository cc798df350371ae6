import type { ServiceMigrations } from '@portal/core';
import m001 from '../migrations/001_representments.sql';
import m002 from '../migrations/002_templates.sql';
import m003 from '../migrations/003_representment_versions.sql';
import m004 from '../migrations/004_packet_page_ops.sql';
import m005 from '../migrations/005_processor_submissions.sql';
import m006 from '../migrations/006_packet_previews.sql';

export const docsMigrations: ServiceMigrations = {
  schema: 'docs',
  migrations: [
    { version: 1, name: '001_representments', sql: m001 },
    { version: 2, name: '002_templates', sql: m002 },
    { version: 3, name: '003_representment_versions', sql: m003 },
    { version: 4, name: '004_packet_page_ops', sql: m004 },
    { version: 5, name: '005_processor_submissions', sql: m005 },
    { version: 6, name: '006_packet_previews', sql: m006 },
  ],
};

import type { ServiceDefinition } from '@portal/core';
import { docsRoutes } from './routes';

export { docsMigrations } from './migrations';
export { seedDocs } from './seed/seed-docs';
export { signFileLink, verifyFileLink, resolveDocsLinkSecret } from './files/signed-links';
export { PgDocumentStore, type DocumentStore } from './store/document-store';

export const docsService: ServiceDefinition = {
  name: 'docs',
  title: 'Docs service',
  routes: docsRoutes,
};

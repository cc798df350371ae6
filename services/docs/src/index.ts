import type { ServiceDefinition } from '@portal/core';
import { docsRoutes } from './routes';

export { docsMigrations } from './migrations';
export { seedDocs } from './seed/seed-docs';
export { copySeedObjects, syncSeedObjects } from './seed/sync-objects';
export { signFileLink, verifyFileLink, resolveDocsLinkSecret } from './files/signed-links';
export { REPRESENTMENT_JOBS, setCardNetwork, compileJob, transportJob } from './representment/jobs';
export { uploadLinkPurge, uploadLinkPurgeJob } from './representment/upload-link-purge';
export { SimulatedCardNetwork, type CardNetworkAdapter } from './representment/card-network';
export { compileRepresentment } from './representment/compile';
export { checkFile } from './representment/file-check';
export { PgDocumentStore, type DocumentStore } from './store/document-store';

export const docsService: ServiceDefinition = {
  name: 'docs',
  title: 'Docs service',
  routes: docsRoutes,
};

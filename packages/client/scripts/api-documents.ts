import {
  buildServiceApp,
  createLogger,
  loadEnv,
  MemoryCache,
  type Db,
  type ServiceName,
} from '../../core/src/index';
import { SERVICES } from '../../../services/runner/src/index';
import {
  gatewayDocument,
  publicDocument,
  type OpenApiDocument,
} from '../../../gateway/src/api-docs/openapi-documents';

/** The documents the client is generated from: the ones GET /api/openapi/{name} serves. */
export const CLIENT_DOCUMENTS = ['case', 'user', 'docs', 'builder', 'gateway'] as const;
export type ClientDocument = (typeof CLIENT_DOCUMENTS)[number];

/**
 * The served documents, built as the gateway builds them (publicDocument over
 * each service's own /openapi.json, gatewayDocument) from the real service
 * apps on a stub store: building a document reads neither Postgres nor Redis,
 * so generation needs no running stack.
 */
export async function servedDocuments(): Promise<Map<ClientDocument, OpenApiDocument>> {
  const env = loadEnv(['case', 'user', 'docs', 'builder'], { NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const log = createLogger(env, 'client-generate');
  // Start-up reads of the services (reference rows present) answered without Postgres.
  const db = {
    query: async () => ({ rows: [{ n: 1_000_000 }], rowCount: 1 }),
    transaction: async (fn: (tx: unknown) => unknown) => fn(db),
  } as unknown as Db;
  const documents = new Map<ClientDocument, OpenApiDocument>();
  for (const name of ['case', 'user', 'docs', 'builder'] as const satisfies readonly ServiceName[]) {
    const app = await buildServiceApp(SERVICES[name].definition, {
      env,
      db,
      cache: new MemoryCache(),
      contextSecret: 'x'.repeat(32),
      log,
    });
    try {
      await app.ready();
      const raw = (await app.inject({ url: '/openapi.json' })).json() as OpenApiDocument;
      documents.set(name, publicDocument(name, raw));
    } finally {
      await app.close();
    }
  }
  documents.set('gateway', gatewayDocument());
  return documents;
}

/**
 * Issue 35.2: every operation of the API documents has a summary written in the operation
 * catalogue (gateway/src/api-docs/operation-catalogue.ts) and a unique operationId. The documents
 * are built as the gateway serves them, from the real services (core's buildServiceApp, stub
 * Postgres and Redis: building a document touches neither), so a route added tomorrow fails here,
 * named, until its entry is written. Validity against the OpenAPI validators is checked on the
 * served documents by tests/integration/api-docs/openapi-validity.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServiceApp, createLogger, loadEnv, MemoryCache, type Db, type ServiceName } from '@portal/core';
import { SERVICES } from '@portal/runner';
import {
  gatewayDocument,
  publicDocument,
  type OpenApiDocument,
} from '../../gateway/src/api-docs/openapi-documents';
import { OPERATION_SUMMARIES, operationIdOf } from '../../gateway/src/api-docs/operation-catalogue';

const env = loadEnv(['case', 'user', 'docs', 'builder'], { NODE_ENV: 'test', LOG_LEVEL: 'silent' });
const log = createLogger(env, 'openapi-catalogue');
/** Start-up reads of the services (reference rows present, no keys to make) answered without Postgres. */
const db = {
  query: async () => ({ rows: [{ n: 1_000_000 }], rowCount: 1 }),
  transaction: async (fn: (tx: unknown) => unknown) => fn(db),
} as unknown as Db;
const SERVICE_NAMES: readonly ServiceName[] = ['case', 'user', 'docs', 'builder'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

const documents = new Map<string, OpenApiDocument>();
/** Every operation as `METHOD /path`, with its document and what the gateway made of it. */
const operations: { doc: string; key: string; summary?: string; operationId?: string }[] = [];

beforeAll(async () => {
  for (const name of SERVICE_NAMES) {
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
  for (const [doc, d] of documents)
    for (const [path, item] of Object.entries(d.paths))
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        const o = op as { summary?: string; operationId?: string };
        operations.push({ doc, key: `${method.toUpperCase()} ${path}`, ...o });
      }
}, 60_000);

afterAll(() => documents.clear());

describe('the operation catalogue of the API documents', () => {
  it('reads the operations of every document', () => {
    for (const name of [...SERVICE_NAMES, 'gateway'])
      expect(operations.filter((o) => o.doc === name).length, name).toBeGreaterThan(0);
  });

  it('has a summary for every documented operation', () => {
    const missing = operations
      .filter((o) => OPERATION_SUMMARIES[o.key] === undefined)
      .map((o) => `${o.doc}: ${o.key}`);
    expect(
      missing,
      `operations without an entry in gateway/src/api-docs/operation-catalogue.ts:\n${missing.join('\n')}\n`,
    ).toEqual([]);
    for (const o of operations) expect(o.summary, o.key).toBe(OPERATION_SUMMARIES[o.key]);
  });

  it('has no entry for an operation no document shows (a removed or internal route)', () => {
    const shown = new Set(operations.map((o) => o.key));
    const stale = Object.keys(OPERATION_SUMMARIES).filter((key) => !shown.has(key));
    expect(stale, `catalogue entries of no documented operation:\n${stale.join('\n')}\n`).toEqual([]);
  });

  it('writes summaries a person can read: short, one line, no trailing full stop', () => {
    const bad = Object.entries(OPERATION_SUMMARIES).filter(
      ([, s]) => s.length < 4 || s.length > 100 || /[\n.]$/.test(s) || s[0] !== s[0]!.toUpperCase(),
    );
    expect(bad).toEqual([]);
  });

  it('gives every operation a unique operationId', () => {
    const ids = operations.map((o) => o.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operationIdOf('GET', '/cm/cases/{id}/history')).toBe('getCmCasesByIdHistory');
    expect(operationIdOf('GET', '/cm/cases.csv')).toBe('getCmCasesCsv');
  });

  it('shows no internal operation: nothing tagged internal, no system-only call', () => {
    const kase = documents.get('case')!;
    const user = documents.get('user')!;
    const tags = operations.flatMap(
      (o) =>
        (
          documents.get(o.doc)!.paths[o.key.split(' ')[1]!]![o.key.split(' ')[0]!.toLowerCase()] as {
            tags?: string[];
          }
        ).tags ?? [],
    );
    expect(tags).not.toContain('internal');
    expect(kase.paths['/cm/assignees/{id}']).toBeUndefined();
    expect(user.paths['/users/audit/batch']).toBeUndefined();
    expect(user.paths['/users/.well-known/jwks.json']).toBeUndefined();
  });
});

import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullStack, type FullStack } from '../../support/full-stack';
import { redoclyProblems, swaggerParserError } from './openapi-validators';

/**
 * Issue 35.2: the documents the gateway serves (GET /api/openapi/{name}) pass two independent
 * OpenAPI 3.0.3 checkers with no error (Redocly's recommended rules, swagger-parser's validate),
 * every operation has an operationId and a summary, and what the services answer matches what the
 * documents say they answer (a sample of live responses, validated against the documented schema).
 */
const DOCS = ['case', 'user', 'docs', 'builder', 'gateway'] as const;
type DocName = (typeof DOCS)[number];
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

// Ajv, as swagger-parser itself validates with it; it knows OpenAPI's `nullable`.
const fromSwaggerParser = createRequire(
  createRequire(import.meta.url).resolve('@apidevtools/swagger-parser'),
);
interface Validate {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}
const Ajv = fromSwaggerParser('ajv') as new (options: object) => { compile(schema: object): Validate };
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });

interface Operation {
  operationId?: string;
  summary?: string;
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>>; components?: object };

let h: FullStack;
let token: string;
const served = new Map<DocName, Doc>();

beforeAll(async () => {
  h = await startFullStack();
  token = await h.signIn('merchant.admin');
  for (const name of DOCS) {
    const r = await h.call('GET', `/openapi/${name}`, { token });
    expect(r.status, `${name}: ${r.body.slice(0, 200)}`).toBe(200);
    served.set(name, r.json() as Doc);
  }
});
afterAll(async () => h?.close());

describe.each(DOCS)('the served %s OpenAPI document', (name) => {
  it('passes redocly lint (recommended rules) with no error', async () => {
    const problems = await redoclyProblems(name, served.get(name));
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors, errors.map((e) => `${e.rule} ${e.pointer}: ${e.message}`).join('\n')).toEqual([]);
  }, 60_000);

  it('passes swagger-parser validate', async () => {
    expect(await swaggerParserError(served.get(name))).toBeNull();
  });

  it('gives every operation an operationId and a summary, and shows no internal one', () => {
    const doc = served.get(name)!;
    const lacking: string[] = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        if (!op.operationId || !op.summary) lacking.push(`${method.toUpperCase()} ${path}`);
        expect((op as { tags?: string[] }).tags ?? []).not.toContain('internal');
      }
    expect(lacking).toEqual([]);
  });
});

/** A sample of calls a merchant's integration makes: [document, method, documented path, concrete call]. */
const SAMPLE: [DocName, string, string, string][] = [
  ['case', 'get', '/cm/cases', '/cm/cases?limit=5'],
  ['case', 'get', '/cm/svc/alerts', '/cm/svc/alerts?limit=5'],
  ['case', 'get', '/cm/gen/currencies', '/cm/gen/currencies'],
  ['case', 'get', '/cm/merchants/list', '/cm/merchants/list?limit=5'],
  ['case', 'get', '/cm/cases/reports/mids-top5', '/cm/cases/reports/mids-top5'],
  ['user', 'post', '/users/whoami', '/users/whoami'],
  ['user', 'get', '/users/users', '/users/users?limit=5'],
  ['user', 'get', '/users/webhooks', '/users/webhooks'],
  ['docs', 'get', '/docs/templates/types', '/docs/templates/types'],
  ['builder', 'get', '/builder/gen/doctypes', '/builder/gen/doctypes'],
  ['gateway', 'get', '/tenant', '/tenant'],
  ['gateway', 'get', '/config/cfg/stack_config_be', '/config/cfg/stack_config_be'],
];

describe('live responses', () => {
  it.each(SAMPLE)('%s %s %s matches its documented schema', async (name, method, path, call) => {
    const doc = served.get(name)!;
    const op = doc.paths[path]?.[method];
    expect(op, `${method} ${path} is documented`).toBeDefined();
    const r = await h.call(method.toUpperCase(), call, { token, ...(method === 'post' ? { body: {} } : {}) });
    const schema = op!.responses[String(r.status)]?.content?.['application/json']?.schema;
    expect(schema, `status ${r.status} of ${call} is documented: ${r.body.slice(0, 200)}`).toBeDefined();
    // The document's components beside the schema: its `#/components/...` references (recursive ones
    // too, like the merchant tree) resolve as they do in the document.
    const validate = ajv.compile({ ...schema!, components: doc.components });
    expect(validate(r.json()), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    expect(validate(null), 'the schema constrains the answer').toBe(false);
    expect(r.status).toBe(200);
  });
});

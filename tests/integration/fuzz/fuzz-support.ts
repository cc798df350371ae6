import fc from 'fast-check';
import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import { buildServiceApp, type ServiceDefinition, type ServiceDeps } from '@portal/core';

/**
 * Schema-driven fuzzing of the service routes (issue 20, item 5): every route
 * of every service is enumerated with its TypeBox schemas, and each field of
 * its params, querystring and body gets hostile values. A route that answers
 * 5xx to any of them fails the test.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON schemas are walked loosely
type Schema = any;

export interface FuzzRoute {
  service: string;
  method: string;
  url: string;
  params?: Schema;
  querystring?: Schema;
  body?: Schema;
}

/** Builds a service app and records every route it registers (with its schemas). */
export async function buildRecordedApp(
  name: string,
  def: ServiceDefinition,
  deps: ServiceDeps,
): Promise<{ app: FastifyInstance; routes: FuzzRoute[] }> {
  const routes: FuzzRoute[] = [];
  const record: FastifyPluginAsync = async (app, opts) => {
    app.addHook('onRoute', (r: RouteOptions) => {
      const methods = Array.isArray(r.method) ? r.method : [r.method];
      for (const method of methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        const s = (r.schema ?? {}) as Record<string, Schema>;
        routes.push({
          service: name,
          method,
          url: r.url,
          params: s.params,
          querystring: s.querystring,
          body: s.body,
        });
      }
    });
    await def.routes(app, opts);
  };
  const app = await buildServiceApp({ ...def, routes: record }, deps);
  await app.ready();
  return { app, routes };
}

// ---------------------------------------------------------------- valid samples

const PATTERN_CANDIDATES = [
  '1',
  'next',
  '2024-01-01|2024-12-31',
  '2024-01-01',
  'abc',
  'fuzz@example.com',
  'A1',
  'ABCD',
  '#336699',
  '00000000-0000-4000-8000-000000000000',
];

/** A plausible valid value for a schema (the baseline each mutation starts from). */
export function sample(schema: Schema, idValue: number, name = ''): unknown {
  if (!schema || typeof schema !== 'object') return 'abc';
  if ('const' in schema) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) {
    const nonNull = variants.find((v: Schema) => v.type !== 'null') ?? variants[0];
    return sample(nonNull, idValue, name);
  }
  if (Array.isArray(schema.allOf)) return sample(schema.allOf[0], idValue, name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
      const wanted = /(^|_)id$|^id$|Id$/.test(name) ? idValue : 1;
      return Math.min(Math.max(wanted, min), max);
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const item = sample(schema.items ?? {}, idValue, name);
      const n = Math.max(1, schema.minItems ?? 1);
      return Array.from({ length: n }, () => item);
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) {
        out[key] = sample(schema.properties?.[key] ?? {}, idValue, key);
      }
      return out;
    }
    case 'string':
    default: {
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'date') return '2024-01-01';
      if (schema.format === 'date-time') return '2024-01-01T00:00:00Z';
      if (schema.format === 'uri') return 'https://example.com/';
      if (schema.pattern) {
        const re = new RegExp(schema.pattern, 'u');
        const hit = PATTERN_CANDIDATES.find((c) => re.test(c));
        if (hit) return hit;
      }
      const min = schema.minLength ?? 0;
      return 'abc'.padEnd(Math.max(3, min), 'x').slice(0, schema.maxLength ?? 1000);
    }
  }
}

// ---------------------------------------------------------------- hostile values

/** A value in a URL (path or query): a string, or several (a repeated key). */
export type UrlValue = string | string[];

/** Hostile values for path and query fields (the fuzz of issue 20 plus the usual suspects). */
export const HOSTILE_URL_VALUES: UrlValue[] = [
  '1e309',
  '-1e309',
  'Infinity',
  'NaN',
  '-1',
  '0',
  '1.5',
  // smallint and int4 edges: values a schema allows but a smallint column cannot hold
  '32768',
  '2147483647',
  '2147483648',
  '99999999999',
  '9007199254740993',
  '1e20',
  '',
  'a\u0000b',
  '\u0000',
  '%00',
  'x'.repeat(5000),
  "' or 1=1 --",
  '😀\u202e',
  'true',
  ['1', '2'],
  ['a\u0000', '1e309'],
];

/** A value in a JSON body, as raw JSON text (so 1e309 reaches the parser as written). */
export const HOSTILE_JSON_VALUES: string[] = [
  '1e309',
  '-1e309',
  '-1',
  '0',
  '1.5',
  '32768',
  '2147483647',
  '2147483648',
  '99999999999',
  '9007199254740993',
  '1e20',
  '""',
  '"a\\u0000b"',
  '"\\u0000"',
  '"%00"',
  JSON.stringify('x'.repeat(20000)),
  JSON.stringify("' or 1=1 --"),
  JSON.stringify('😀\u202e'),
  '"2147483648"',
  '"1e309"',
  'null',
  'true',
  '[]',
  '[1]',
  '{}',
  '["a\\u0000"]',
];

/** Whole bodies that are not what any route expects. */
export const HOSTILE_BODIES: string[] = [
  '1e309',
  '"a\\u0000b"',
  '[]',
  'null',
  '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
  '{"a\\u0000b":1}',
];

// ---------------------------------------------------------------- requests

export interface FuzzRequest {
  method: string;
  url: string;
  /** Raw JSON text or undefined. */
  payload?: string;
  label: string;
}

function fillPath(url: string, params: Record<string, UrlValue>): string {
  return url.replace(/:([A-Za-z_][A-Za-z0-9_]*)|\*/g, (m, name: string | undefined) => {
    const v = params[name ?? '*'];
    const s = Array.isArray(v) ? v.join(',') : (v ?? '1');
    return name ? encodeURIComponent(s) : s.split('/').map(encodeURIComponent).join('/');
  });
}

function queryString(query: Record<string, UrlValue>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    for (const one of Array.isArray(v) ? v : [v])
      parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(one)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

const toUrlValue = (v: unknown): UrlValue =>
  Array.isArray(v) ? v.map((x) => String(x)) : v === null || v === undefined ? '' : String(v);

/** Field names of an object schema (all properties, not just the required ones). */
function fieldsOf(schema: Schema): string[] {
  if (!schema || typeof schema !== 'object') return [];
  if (schema.properties) return Object.keys(schema.properties);
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (Array.isArray(variants)) return [...new Set(variants.flatMap(fieldsOf))];
  return [];
}

function pathParamNames(url: string): string[] {
  const names = [...url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
  if (url.includes('*')) names.push('*');
  return names;
}

export interface Baseline {
  params: Record<string, UrlValue>;
  query: Record<string, UrlValue>;
  body: unknown;
}

export function baseline(route: FuzzRoute, idValue: number): Baseline {
  const params: Record<string, UrlValue> = {};
  for (const name of pathParamNames(route.url)) {
    params[name] = toUrlValue(sample(route.params?.properties?.[name] ?? { type: 'integer' }, idValue, 'id'));
  }
  const query = route.querystring ? (sample(route.querystring, idValue) as Record<string, unknown>) : {};
  const body = route.body ? sample(route.body, idValue) : undefined;
  return {
    params,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, toUrlValue(v)])),
    body,
  };
}

const PLACEHOLDER = '"__FUZZ_PLACEHOLDER__"';

export function buildRequest(
  route: FuzzRoute,
  base: Baseline,
  change:
    | { where: 'params' | 'query'; name: string; value: UrlValue }
    | { where: 'body'; path: string[]; raw: string }
    | { where: 'wholeBody'; raw: string }
    | null,
): FuzzRequest {
  const params = { ...base.params };
  const query = { ...base.query };
  let payload = base.body === undefined ? undefined : JSON.stringify(base.body);
  let label = 'baseline';
  if (change?.where === 'params') {
    params[change.name] = change.value;
    label = `params.${change.name}=${JSON.stringify(change.value).slice(0, 40)}`;
  } else if (change?.where === 'query') {
    query[change.name] = change.value;
    label = `query.${change.name}=${JSON.stringify(change.value).slice(0, 40)}`;
  } else if (change?.where === 'body') {
    const body = structuredClone(base.body ?? {}) as Record<string, unknown>;
    setPath(body, change.path, '__FUZZ_PLACEHOLDER__');
    payload = JSON.stringify(body).replace(PLACEHOLDER, change.raw);
    label = `body.${change.path.join('.')}=${change.raw.slice(0, 40)}`;
  } else if (change?.where === 'wholeBody') {
    payload = change.raw;
    label = `body=${change.raw.slice(0, 40)}`;
  }
  return { method: route.method, url: fillPath(route.url, params) + queryString(query), payload, label };
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown) {
  let node: Record<string, unknown> = target;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}

/** Body field paths: top-level fields, plus the fields of the first item of arrays of objects. */
function bodyPaths(schema: Schema): string[][] {
  const out: string[][] = [];
  const props = schema?.properties ?? {};
  for (const key of fieldsOf(schema)) {
    out.push([key]);
    const p = props[key];
    if (p?.type === 'array' && p.items?.properties) {
      for (const inner of Object.keys(p.items.properties)) out.push([key, '0', inner]);
    } else if (p?.type === 'object' && p.properties) {
      for (const inner of Object.keys(p.properties)) out.push([key, inner]);
    }
  }
  return out;
}

/**
 * Every single-field mutation of a route with every hostile value. A
 * querystring schema shared by several routes (the case list and its exports,
 * the lookups) is fuzzed field by field on the first route that has it; the
 * others get the paging fields plus a rotating eighth of the fields, so the
 * whole run stays short.
 */
export function mutations(
  route: FuzzRoute,
  idValue: number,
  seenQueries?: Map<string, number>,
): FuzzRequest[] {
  const base = baseline(route, idValue);
  const out: FuzzRequest[] = [buildRequest(route, base, null)];
  for (const name of pathParamNames(route.url)) {
    for (const value of HOSTILE_URL_VALUES)
      out.push(buildRequest(route, base, { where: 'params', name, value }));
  }
  let queryFields = new Set([...fieldsOf(route.querystring), 'start', 'search']);
  if (seenQueries && route.querystring) {
    const key = JSON.stringify(route.querystring);
    const seen = seenQueries.get(key) ?? 0;
    seenQueries.set(key, seen + 1);
    if (seen > 0) {
      queryFields = new Set(
        [...queryFields].filter(
          (name, i) =>
            ['start', 'limit', 'search', 'id', 'merchant_id', 'client_id'].includes(name) ||
            i % 8 === seen % 8,
        ),
      );
    }
  }
  for (const name of queryFields) {
    for (const value of HOSTILE_URL_VALUES)
      out.push(buildRequest(route, base, { where: 'query', name, value }));
  }
  if (route.method !== 'GET' && route.method !== 'DELETE') {
    for (const path of bodyPaths(route.body)) {
      // Nested array items need the array to exist in the baseline.
      if (path.length === 3 && !Array.isArray((base.body as Record<string, unknown>)?.[path[0]!])) continue;
      for (const raw of HOSTILE_JSON_VALUES)
        out.push(buildRequest(route, base, { where: 'body', path, raw }));
    }
    for (const raw of HOSTILE_BODIES) out.push(buildRequest(route, base, { where: 'wholeBody', raw }));
  }
  return out;
}

// ---------------------------------------------------------------- random (fast-check)

const urlScalar: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_URL_VALUES.filter((v): v is string => typeof v === 'string')),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.double().map(String),
);

const jsonScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.maxSafeInteger(),
  fc.constantFrom(2147483648, 2 ** 53 + 2, 1e20, -1, 0, null, true, '', 'a\u0000b', [], {}),
);

/** Random requests for a route: each known field keeps its valid sample or gets a random/hostile value. */
export function randomRequests(route: FuzzRoute, idValue: number): fc.Arbitrary<FuzzRequest> {
  const base = baseline(route, idValue);
  const paramNames = pathParamNames(route.url);
  const queryNames = fieldsOf(route.querystring);
  const bodyNames = route.method === 'GET' || route.method === 'DELETE' ? [] : fieldsOf(route.body);
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { freq: 2, nil: undefined });
  return fc
    .record({
      params: fc.tuple(...paramNames.map(() => maybe(urlScalar))),
      query: fc.tuple(
        ...queryNames.map(() => maybe(fc.oneof(urlScalar, fc.array(urlScalar, { maxLength: 3 })))),
      ),
      body: fc.tuple(...bodyNames.map(() => maybe(jsonScalar))),
    })
    .map(({ params, query, body }) => {
      const b: Baseline = {
        params: { ...base.params },
        query: { ...base.query },
        body:
          base.body && typeof base.body === 'object' && !Array.isArray(base.body)
            ? { ...(base.body as object) }
            : base.body,
      };
      const changed: string[] = [];
      params.forEach((v, i) => {
        if (v !== undefined) {
          b.params[paramNames[i]!] = v;
          changed.push(`params.${paramNames[i]}=${JSON.stringify(v).slice(0, 30)}`);
        }
      });
      query.forEach((v, i) => {
        if (v !== undefined) {
          b.query[queryNames[i]!] = v;
          changed.push(`query.${queryNames[i]}=${JSON.stringify(v).slice(0, 30)}`);
        }
      });
      body.forEach((v, i) => {
        if (v !== undefined && b.body && typeof b.body === 'object') {
          (b.body as Record<string, unknown>)[bodyNames[i]!] = v;
          changed.push(`body.${bodyNames[i]}=${JSON.stringify(v).slice(0, 30)}`);
        }
      });
      const req = buildRequest(route, b, null);
      return { ...req, label: `random ${changed.join(' ') || 'baseline'}` };
    });
}

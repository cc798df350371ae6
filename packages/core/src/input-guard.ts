import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { badRequest } from './errors';

/**
 * Input guard (issue 20 item 5), applied to every route of every service,
 * including routes added later and routes whose schema forgot a bound:
 * - every integer in a params/querystring/body/headers schema without an
 *   upper (lower) bound gets the Postgres int4 bound, every number ±1e15, so
 *   '1e309' (which AJV's coercion turns into Infinity) and 2147483648 are
 *   400s, not 'value out of range' 500s from the database;
 * - a NUL character anywhere in the params, querystring or body (values or
 *   keys) is a 400 naming the field: Postgres refuses NUL in text.
 */
const INPUT_INT_MAX = 2_147_483_647;
const INPUT_INT_MIN = -2_147_483_648;
const INPUT_NUMBER_LIMIT = 1e15;
const NUL_MESSAGE = 'must not contain a NUL character';

type JsonSchema = Record<string | symbol, unknown>;
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas'];
const SCHEMA_ONE = [
  'items',
  'additionalProperties',
  'additionalItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const SCHEMA_LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/** A copy of a request schema with int4 bounds on unbounded integers and finite bounds on numbers. */
function boundRequestSchema<T>(schema: T): T {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const src = schema as JsonSchema;
  const out: JsonSchema = {};
  for (const key of Reflect.ownKeys(src)) {
    const value = src[key];
    if (typeof key === 'string' && SCHEMA_MAPS.includes(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value as JsonSchema).map(([k, v]) => [k, boundRequestSchema(v)]),
      );
    } else if (typeof key === 'string' && SCHEMA_ONE.includes(key)) {
      out[key] = Array.isArray(value) ? value.map((v) => boundRequestSchema(v)) : boundRequestSchema(value);
    } else if (typeof key === 'string' && SCHEMA_LIST.includes(key) && Array.isArray(value)) {
      out[key] = value.map((v) => boundRequestSchema(v));
    } else {
      out[key] = value;
    }
  }
  const types = Array.isArray(out.type) ? out.type : [out.type];
  const integer = types.includes('integer');
  if (integer || types.includes('number')) {
    const [min, max] = integer ? [INPUT_INT_MIN, INPUT_INT_MAX] : [-INPUT_NUMBER_LIMIT, INPUT_NUMBER_LIMIT];
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = max;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = min;
  }
  return out as T;
}

function boundRouteSchemas(route: RouteOptions) {
  const schema = route.schema as Record<string, unknown> | undefined;
  if (!schema) return;
  const bounded: Record<string, unknown> = { ...schema };
  for (const part of ['params', 'querystring', 'query', 'body', 'headers']) {
    if (schema[part]) bounded[part] = boundRequestSchema(schema[part]);
  }
  route.schema = bounded;
}

/** Walks a parsed input (values and keys); answers the path of the first value `bad` picks, or null. */
function findInput(value: unknown, path: string, bad: (value: unknown) => boolean, depth = 0): string | null {
  if (bad(value)) return path;
  if (!value || typeof value !== 'object' || depth > 32) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findInput(value[i], `${path}.${i}`, bad, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  // Buffers, streams and multipart files are not walked.
  if (ArrayBuffer.isView(value) || typeof (value as { pipe?: unknown }).pipe === 'function') return null;
  for (const [key, inner] of Object.entries(value)) {
    if (bad(key)) return `${path}.${key.split('\u0000').join('\\0')}`;
    const hit = findInput(inner, `${path}.${key}`, bad, depth + 1);
    if (hit) return hit;
  }
  return null;
}

const hasNul = (value: unknown) => typeof value === 'string' && value.includes('\u0000');
/** AJV coerces '1e309' and 'Infinity' to Infinity and then skips maximum/minimum: refuse them here. */
const notFinite = (value: unknown) => typeof value === 'number' && !Number.isFinite(value);

function guard(bad: (value: unknown) => boolean, intro: string, message: string) {
  return async (request: FastifyRequest) => {
    const parts: Array<[string, unknown]> = [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ];
    for (const [name, value] of parts) {
      const field = findInput(value, name, bad);
      if (field) {
        throw badRequest(`${intro}: ${field.replace('.', '/')} ${message}.`, {
          fields: [{ field: field.replace(/^[a-z]+\.?/, ''), message }],
        });
      }
    }
  };
}

/** Before validation, so the answer is the same whatever the route's schema says. */
const refuseNul = guard(hasNul, 'The request contains a NUL character', NUL_MESSAGE);
/** After validation (coercion happens there). */
const refuseInfinity = guard(
  notFinite,
  'The request contains a number out of range',
  'must be a finite number',
);

/** The guard on a service app: bounds added to every route's schema as it is registered, then both checks. */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('onRoute', boundRouteSchemas);
  app.addHook('preValidation', refuseNul);
  app.addHook('preHandler', refuseInfinity);
}

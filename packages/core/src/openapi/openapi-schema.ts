/**
 * JSON Schema (as TypeBox writes it, draft 2019-09 flavoured) to the OpenAPI 3.0.3 Schema Object,
 * which is a narrower dialect: no `$id`, `const`, `patternProperties`, `examples`, type arrays,
 * `type: 'null'` or numeric `exclusiveMinimum`. The routes keep their TypeBox schemas (one source of
 * truth); the documents are converted when they are built, so validators and generators accept them.
 */

type Json = Record<string, unknown>;

/** Keywords of the OpenAPI 3.0.3 Schema Object; anything else (TypeBox's `$id`, `$schema`...) is dropped. */
const OPENAPI_KEYWORDS = new Set([
  'title',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'enum',
  'type',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'items',
  'properties',
  'additionalProperties',
  'description',
  'format',
  'default',
  'nullable',
  'discriminator',
  'readOnly',
  'writeOnly',
  'example',
  'externalDocs',
  'deprecated',
  'xml',
  '$ref',
]);

const OPENAPI_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean']);

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isNullSchema = (value: unknown) => isObject(value) && value.type === 'null';

/** `anyOf: [X, {type: 'null'}]` (TypeBox's Nullable/Optional null) becomes X with `nullable: true`. */
function foldNullable(schema: Json, key: 'anyOf' | 'oneOf'): Json {
  const list = schema[key];
  if (!Array.isArray(list) || !list.some(isNullSchema)) return schema;
  const rest = list.filter((s) => !isNullSchema(s));
  const { [key]: _dropped, ...outer } = schema;
  if (rest.length === 0) return { ...outer, nullable: true, enum: [null] };
  if (rest.length > 1) return { ...outer, [key]: rest, nullable: true };
  const only = rest[0] as Json;
  // A $ref takes no siblings in 3.0: wrap it.
  if ('$ref' in only) return { ...outer, allOf: [only], nullable: true };
  return { ...only, ...outer, nullable: true };
}

/** One schema (and everything under it) in the OpenAPI 3.0.3 dialect. Never mutates its input. */
export function toOpenApiSchema(input: unknown): unknown {
  if (!isObject(input)) return input;
  // Folded first: the member it keeps goes through every step below.
  let schema: Json = foldNullable(foldNullable({ ...input }, 'anyOf'), 'oneOf');

  if ('const' in schema) {
    const { const: value, ...rest } = schema;
    schema = { ...rest, enum: [value] };
  }
  if (Array.isArray(schema.examples) && schema.example === undefined && schema.examples.length > 0)
    schema.example = schema.examples[0];
  if (Array.isArray(schema.type)) {
    const types = (schema.type as unknown[]).filter((t) => t !== 'null');
    if (types.length < schema.type.length) schema.nullable = true;
    if (types.length === 1) schema.type = types[0];
    else {
      delete schema.type;
      if (types.length > 1) schema.anyOf = types.map((type) => ({ type }));
    }
  }
  if (schema.type === 'null') {
    delete schema.type;
    schema = { ...schema, nullable: true, enum: [null] };
  } else if (typeof schema.type === 'string' && !OPENAPI_TYPES.has(schema.type)) {
    // TypeBox's JavaScript types (Uint8Array, Date, ...) have no JSON form: describe them as strings.
    schema.type = 'string';
  }
  if (isObject(schema.patternProperties)) {
    const values = Object.values(schema.patternProperties);
    if (values.length > 0 && schema.additionalProperties !== false)
      schema.additionalProperties = values.length === 1 ? values[0] : { anyOf: values };
    delete schema.patternProperties;
  }
  for (const bound of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
    if (typeof schema[bound] === 'number') {
      schema[bound === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = schema[bound];
      schema[bound] = true;
    }
  }
  if (Array.isArray(schema.items)) {
    // Tuples: 3.0 has one items schema; keep the length.
    const items = schema.items as unknown[];
    schema.minItems ??= items.length;
    schema.maxItems ??= items.length;
    const distinct = [...new Map(items.map((i) => [JSON.stringify(i), i])).values()];
    schema.items = distinct.length <= 1 ? (distinct[0] ?? {}) : { anyOf: distinct };
  }
  if (Array.isArray(schema.required) && schema.required.length === 0) delete schema.required;

  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!OPENAPI_KEYWORDS.has(key) && !key.startsWith('x-')) continue;
    if (key === 'properties' && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toOpenApiSchema(v)]));
    else if ((key === 'allOf' || key === 'anyOf' || key === 'oneOf') && Array.isArray(value))
      out[key] = value.map(toOpenApiSchema);
    else if (key === 'items' || key === 'not' || (key === 'additionalProperties' && isObject(value)))
      out[key] = toOpenApiSchema(value);
    else out[key] = value;
  }
  // $ref takes no siblings in 3.0 (a description beside it is ignored by tools, an error for some).
  if ('$ref' in out) return { $ref: out.$ref };
  return out;
}

const mapValues = (record: unknown, fn: (value: unknown) => unknown) =>
  isObject(record) ? Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v)])) : record;

/** The schema of each media type of a `content` map. */
const convertContent = (content: unknown) =>
  mapValues(content, (media) =>
    isObject(media) && 'schema' in media ? { ...media, schema: toOpenApiSchema(media.schema) } : media,
  );

const convertParameter = (parameter: unknown) =>
  isObject(parameter) && 'schema' in parameter
    ? { ...parameter, schema: toOpenApiSchema(parameter.schema) }
    : parameter;

function convertResponse(response: unknown) {
  if (!isObject(response)) return response;
  const out: Json = { ...response };
  if ('content' in out) out.content = convertContent(out.content);
  if ('headers' in out) out.headers = mapValues(out.headers, convertParameter);
  return out;
}

function convertOperation(operation: unknown) {
  if (!isObject(operation)) return operation;
  const out: Json = { ...operation };
  if (Array.isArray(out.parameters)) out.parameters = out.parameters.map(convertParameter);
  if (isObject(out.requestBody) && 'content' in out.requestBody)
    out.requestBody = { ...out.requestBody, content: convertContent(out.requestBody.content) };
  if ('responses' in out) out.responses = mapValues(out.responses, convertResponse);
  return out;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Every schema of an OpenAPI document (paths, parameters, bodies, responses, components) converted. */
export function toOpenApiDocumentSchemas<T extends object>(doc: T): T {
  const source = doc as Json;
  const paths = mapValues(source.paths, (item) => {
    if (!isObject(item)) return item;
    return Object.fromEntries(
      Object.entries(item).map(([key, value]) => [
        key,
        HTTP_METHODS.has(key)
          ? convertOperation(value)
          : key === 'parameters' && Array.isArray(value)
            ? value.map(convertParameter)
            : value,
      ]),
    );
  });
  const components = isObject(source.components)
    ? {
        ...source.components,
        ...('schemas' in source.components
          ? { schemas: mapValues(source.components.schemas, toOpenApiSchema) }
          : {}),
        ...('parameters' in source.components
          ? { parameters: mapValues(source.components.parameters, convertParameter) }
          : {}),
        ...('responses' in source.components
          ? { responses: mapValues(source.components.responses, convertResponse) }
          : {}),
      }
    : undefined;
  return { ...source, paths, ...(components ? { components } : {}) } as T;
}

import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { toOpenApiDocumentSchemas, toOpenApiSchema } from './openapi-schema';

/** JSON round trip: TypeBox's symbol keys gone, as in a served document. */
const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as unknown;

describe('TypeBox schemas in the OpenAPI 3.0.3 dialect (issue 35.2)', () => {
  it('turns const into enum and drops $id', () => {
    expect(toOpenApiSchema(plain(Type.Literal('a', { $id: 'A' })))).toEqual({ type: 'string', enum: ['a'] });
  });

  it('folds a union with null into nullable, around a $ref too', () => {
    expect(toOpenApiSchema(plain(Type.Union([Type.String(), Type.Null()])))).toEqual({
      type: 'string',
      nullable: true,
    });
    expect(toOpenApiSchema({ anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }] })).toEqual({
      allOf: [{ $ref: '#/components/schemas/X' }],
      nullable: true,
    });
    expect(toOpenApiSchema({ type: ['integer', 'null'] })).toEqual({ type: 'integer', nullable: true });
    expect(toOpenApiSchema(plain(Type.Union([Type.Literal(1), Type.Literal(2), Type.Null()])))).toEqual({
      anyOf: [
        { type: 'number', enum: [1] },
        { type: 'number', enum: [2] },
      ],
      nullable: true,
    });
  });

  it('turns patternProperties (Type.Record) into additionalProperties', () => {
    expect(toOpenApiSchema(plain(Type.Record(Type.String(), Type.Integer())))).toEqual({
      type: 'object',
      additionalProperties: { type: 'integer' },
    });
  });

  it('converts numeric exclusive bounds, tuples and examples, and keeps x- extensions', () => {
    expect(toOpenApiSchema({ type: 'number', exclusiveMinimum: 0, examples: [3], 'x-unit': 'EUR' })).toEqual({
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      example: 3,
      'x-unit': 'EUR',
    });
    expect(toOpenApiSchema(plain(Type.Tuple([Type.String(), Type.String()])))).toEqual({
      type: 'array',
      items: { type: 'string' },
      minItems: 2,
      maxItems: 2,
    });
  });

  it('converts nested schemas and leaves the input unchanged', () => {
    const input = plain(
      Type.Object({ list: Type.Array(Type.Object({ kind: Type.Literal('x') }), { $id: 'L' }) }, { $id: 'O' }),
    );
    const before = JSON.stringify(input);
    expect(toOpenApiSchema(input)).toEqual({
      type: 'object',
      required: ['list'],
      properties: {
        list: {
          type: 'array',
          items: {
            type: 'object',
            required: ['kind'],
            properties: { kind: { type: 'string', enum: ['x'] } },
          },
        },
      },
    });
    expect(JSON.stringify(input)).toBe(before);
  });

  it('reaches every schema of a document: parameters, bodies, responses, headers, components', () => {
    const c = { const: 1 };
    const doc = toOpenApiDocumentSchemas({
      paths: {
        '/a/{id}': {
          parameters: [{ name: 'id', in: 'path', schema: c }],
          post: {
            parameters: [{ name: 'q', in: 'query', schema: c }],
            requestBody: { content: { 'application/json': { schema: c } } },
            responses: {
              '200': { description: 'OK', headers: { h: { schema: c } }, content: { 'a/b': { schema: c } } },
            },
          },
        },
      },
      components: { schemas: { S: c } },
    });
    expect(JSON.stringify(doc)).not.toContain('const');
    expect(JSON.stringify(doc).match(/"enum":\[1\]/g)).toHaveLength(6);
  });
});

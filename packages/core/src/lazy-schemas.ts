import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify's own schema compilers (Ajv for requests, fast-json-stringify for
 * responses), compiled on a route's first request instead of at start-up.
 * Eager compilation of every route of the four services and of each GET's
 * HEAD twin took about 2 s of a 6 s start (a profile of `npm start`); a route
 * now pays its few milliseconds once, when first called. The compiled code,
 * options and error messages are Fastify's defaults, unchanged.
 */
type ValidatorBuilder = ReturnType<typeof AjvCompiler>;
type SerializerBuilder = ReturnType<typeof SerializerSelector>;
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

export function lazySchemaCompilers(): {
  buildValidator: ValidatorBuilder;
  buildSerializer: SerializerBuilder;
} {
  const eagerValidator = AjvCompiler();
  const eagerSerializer = SerializerSelector();
  return {
    buildValidator: ((externalSchemas, ajvOptions) => {
      const compile = eagerValidator(externalSchemas, ajvOptions);
      return (route: Parameters<typeof compile>[0]) => {
        let compiled: Validate | undefined;
        const validate: Validate = (data, context) => {
          compiled ??= compile(route) as unknown as Validate;
          // Fastify passes the parent object (so Ajv may coerce a root value) only when it sees
          // schemaEnv, as on an Ajv function: a placeholder keeps that path.
          const valid = compiled.schemaEnv ? compiled(data, context) : compiled(data);
          validate.errors = compiled.errors;
          return valid;
        };
        validate.schemaEnv = true;
        return validate;
      };
    }) as ValidatorBuilder,
    buildSerializer: ((externalSchemas, options) => {
      const compile = eagerSerializer(externalSchemas, options);
      return (route) => {
        let serialize: ((doc: unknown) => string) | undefined;
        return (doc: unknown) => (serialize ??= compile(route))(doc);
      };
    }) as SerializerBuilder,
  };
}

import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** `{statusCode, error, message}` plus optional field details (design §5). */
export const ErrorResponse = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    message: Type.String(),
    code: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
    data: Type.Optional(Type.Unknown()),
  },
  { $id: 'ErrorResponse' },
);
export type ErrorResponse = Static<typeof ErrorResponse>;

export const Pagination = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 0 }),
  start: Type.Integer({ minimum: 0 }),
});
export type Pagination = Static<typeof Pagination>;

/** Every list answers `{data, pagination}`; `limit=0` answers only the count. */
export const ListResponse = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), pagination: Pagination });

export const SortOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);

/** Shared paging parameters of every grid call (spec 1 §7, design §5). */
export const ListQuery = Type.Object({
  start: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 25 })),
  sort_by: Type.Optional(Type.String({ maxLength: 64 })),
  sort_order: Type.Optional(SortOrder),
  search: Type.Optional(Type.String({ maxLength: 200 })),
});
export type ListQuery = Static<typeof ListQuery>;

/** `from|to` in yyyy-MM-dd (design §5). */
export const DATE_RANGE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}\\|\\d{4}-\\d{2}-\\d{2}$';
export const DateRange = Type.String({ pattern: DATE_RANGE_PATTERN });

export const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]),
  service: Type.String(),
  checks: Type.Record(
    Type.String(),
    Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('off')]),
  ),
});
export type HealthResponse = Static<typeof HealthResponse>;

/** Health routes: each service's own, and the gateway's (docker-compose health checks use these). */
export const SERVICE_HEALTH_PATH = '/health';
export const GATEWAY_HEALTH_PATH = '/api/health';

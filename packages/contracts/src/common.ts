import {
  Type,
  type IntegerOptions,
  type NumberOptions,
  type Static,
  type StringOptions,
  type TSchema,
} from '@sinclair/typebox';

/*
 * Bounded inputs (issue 20 item 5). Every integer a request carries fits the
 * Postgres int4 range (our ids all do: demo blocks of tenant * 1,000,000 and
 * new users from 100,000,000), every amount fits numeric(12, 2), and no
 * string carries a NUL character (Postgres refuses NUL in text). Request
 * schemas use these helpers; the service app factory (packages/core
 * buildServiceApp) also bounds any integer a schema left unbounded and
 * refuses NUL anywhere, for routes that forget.
 */
export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;
/** numeric(12, 2): the largest amount the case tables hold. */
export const MONEY_MAX = 9_999_999_999.99;
/** Any string without a NUL character. */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';
/** A decimal integer 0..2147483647 (leading zeros allowed), for ids carried in strings. */
export const INT32_DIGITS =
  '0*(?:[0-9]{1,9}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]|214748364[0-7])';
/** One id or a comma-separated list of ids, each in the int4 range. */
export const ID_LIST_PATTERN = `^${INT32_DIGITS}(,${INT32_DIGITS})*$`;
/** A positive id (1..2147483647) in a string (a path segment that also takes words). */
export const ID_STRING_PATTERN =
  '^(?:[1-9][0-9]{0,8}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]|214748364[0-7])$';

/** A row id: integer 1..2147483647. */
export const Id = (options: IntegerOptions = {}) =>
  Type.Integer({ minimum: 1, maximum: INT32_MAX, ...options });
/** An id stored in a smallint column (statuses, levels, types). */
export const SmallId = (options: IntegerOptions = {}) => Id({ maximum: 32_767, ...options });
/** Any int4 value (options narrow it). */
export const Int32 = (options: IntegerOptions = {}) =>
  Type.Integer({ minimum: INT32_MIN, maximum: INT32_MAX, ...options });
/** Paging offset `start`: 0..2147483647, default 0. */
export const Offset = (options: IntegerOptions = {}) =>
  Type.Integer({ minimum: 0, maximum: INT32_MAX, default: 0, ...options });
/** An amount: 0..9999999999.99 (numeric(12, 2)). */
export const Money = (options: NumberOptions = {}) =>
  Type.Number({ minimum: 0, maximum: MONEY_MAX, ...options });
/**
 * Text input: a string without NUL. Give it a maxLength. A `pattern` of its
 * own replaces the NUL pattern, so such a pattern must not match NUL itself.
 */
export const Text = (options: StringOptions = {}) => Type.String({ pattern: NO_NUL_PATTERN, ...options });
/** One id or a comma-separated list of ids (filters such as `status_id=1,2`). */
export const IdList = (options: StringOptions = {}) =>
  Type.String({
    pattern: ID_LIST_PATTERN,
    maxLength: 2000,
    description: 'one id or a comma-separated list',
    ...options,
  });

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
  /** True when counting stopped at a cap (a very broad search): at least `total` rows match. */
  total_is_lower_bound: Type.Optional(Type.Boolean()),
});
export type Pagination = Static<typeof Pagination>;

/** Every list answers `{data, pagination}`; `limit=0` answers only the count. */
export const ListResponse = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), pagination: Pagination });

export const SortOrder = Type.Union([Type.Literal('asc'), Type.Literal('desc')]);

/** Shared paging parameters of every grid call (spec 1 §7, design §5). */
export const ListQuery = Type.Object({
  start: Type.Optional(Offset()),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 25 })),
  sort_by: Type.Optional(Text({ maxLength: 64 })),
  sort_order: Type.Optional(SortOrder),
  search: Type.Optional(Text({ maxLength: 200 })),
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
  /** Readiness: the process is shutting down (it still serves, but takes no new traffic). */
  draining: Type.Optional(Type.Boolean()),
  /** Readiness: what makes it not ready (check names, or 'draining'). */
  down: Type.Optional(Type.Array(Type.String())),
});
export type HealthResponse = Static<typeof HealthResponse>;

/**
 * Health routes: each service's own, and the gateway's. The plain ones report every dependency
 * (design §4); probes use the two below them.
 */
export const SERVICE_HEALTH_PATH = '/health';
export const GATEWAY_HEALTH_PATH = '/api/health';
/**
 * Liveness: 200 while the process's event loop answers, whatever its dependencies do (a Postgres,
 * Redis or upstream outage must not get pods restarted). Services and the worker, then the gateway.
 */
export const SERVICE_LIVE_PATH = '/health/live';
export const GATEWAY_LIVE_PATH = '/api/health/live';
/**
 * Readiness: 200 when the process can serve traffic now, 503 (HealthResponse naming what is down in
 * `down`) when a dependency it needs is down or it is draining for shutdown.
 */
export const SERVICE_READY_PATH = '/health/ready';
export const GATEWAY_READY_PATH = '/api/health/ready';

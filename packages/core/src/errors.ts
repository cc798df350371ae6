import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/** An error whose message a person may read; everything else becomes a generic 500. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly data?: unknown,
    readonly code?: string | number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, data?: unknown) => new HttpError(400, message, data);
export const unauthorized = (message = 'Authentication required.') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do that.', data?: unknown) =>
  new HttpError(403, message, data);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const conflict = (message: string, data?: unknown) => new HttpError(409, message, data);

export const GENERIC_ERROR_MESSAGE = 'An unknown error occurred. Please try again later.';

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable. Please try again in a moment.';

/** Postgres SQLSTATE classes and socket codes of a database that is down, restarting or unreachable. */
const DB_DOWN_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
]);

/** Whether an error is the database going away (restart, failover, network), as pg reports it. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (DB_DOWN_CODES.has(code) || code.startsWith('08')) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /^Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
    message,
  );
}

export const statusText = (status: number) => STATUS_CODES[status] ?? 'Error';

/**
 * One error handler for every app: validation errors name the field, coded
 * errors keep their message, anything unexpected is logged with its cause and
 * answered without internals.
 */
export function errorHandler(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    // 429/503 with data.retry_after (seconds): also the Retry-After header, which clients wait on.
    const retryAfter = (error.data as { retry_after?: unknown } | undefined)?.retry_after;
    if (
      typeof retryAfter === 'number' &&
      retryAfter > 0 &&
      (error.statusCode === 429 || error.statusCode === 503)
    )
      reply.header('retry-after', String(Math.ceil(retryAfter)));
    return reply.status(error.statusCode).send({
      statusCode: error.statusCode,
      error: statusText(error.statusCode),
      message: error.message,
      ...(error.code !== undefined ? { code: error.code } : {}),
      ...(error.data !== undefined ? { data: error.data } : {}),
    });
  }
  const fe = error as FastifyError;
  if (fe.validation) {
    const fields = fe.validation.map((v) => ({
      field:
        (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') ||
        String(v.params?.missingProperty ?? ''),
      message: readableValidationMessage(v),
    }));
    // Fastify's own text names the part and field ('querystring/start must be <= 2147483647');
    // rebuilt when a pattern would otherwise be printed as a regular expression.
    const rewritten = fe.validation.some((v) => v.keyword === 'pattern');
    const context = fe.validationContext ?? 'request';
    const message = rewritten
      ? fe.validation
          .map((v) => `${context}${v.instancePath || ''} ${readableValidationMessage(v)}`)
          .join(', ')
      : fe.message;
    return reply.status(400).send({
      statusCode: 400,
      error: 'Bad Request',
      message,
      data: { fields },
    });
  }
  if (isDatabaseUnavailable(error)) {
    // An outage, not a defect: the client may retry (and the gateway passes the 503 on).
    request.log.warn({ err: error }, 'database unavailable');
    reply.header('retry-after', '5');
    return reply
      .status(503)
      .send({ statusCode: 503, error: statusText(503), message: DATABASE_UNAVAILABLE_MESSAGE });
  }
  const status = fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500 ? fe.statusCode : 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send({ statusCode: 500, error: statusText(500), message: GENERIC_ERROR_MESSAGE });
  }
  return reply.status(status).send({ statusCode: status, error: statusText(status), message: fe.message });
}

/** A validation error's message as a person reads it: known patterns by meaning, long patterns as 'has an invalid format'. */
function readableValidationMessage(v: {
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}): string {
  if (v.keyword === 'pattern') {
    const pattern = String(v.params?.pattern ?? '');
    if (pattern === '^[^\\u0000]*$') return 'must not contain a NUL character';
    if (pattern.includes('214748364'))
      return 'must be an id (or a comma-separated list of ids) no greater than 2147483647';
    if (pattern.length > 40) return 'has an invalid format';
  }
  return v.message ?? 'is invalid';
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send({
    statusCode: 404,
    error: 'Not Found',
    message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
  });
}

import pino, { type LoggerOptions } from 'pino';
import type { Env } from './env';

/**
 * Paths never written to logs: credentials in headers and bodies, tokens,
 * one-time codes and the signed internal context.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-portal-context"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.current_password',
  '*.new_password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.session',
  // One-time codes travel in bodies only (`err.code` such as ECONNREFUSED stays readable).
  'body.code',
  '*.body.code',
  '*.secret',
  'password',
  'token',
  'secret',
];

export function loggerOptions(env: Pick<Env, 'LOG_LEVEL' | 'NODE_ENV'>, name: string): LoggerOptions {
  return {
    name,
    level: env.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      // Only what helps an operator; bodies are never logged.
      req: (req: { id?: string; method?: string; url?: string; headers?: Record<string, unknown> }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
        host: req.headers?.host,
      }),
    },
  };
}

export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'NODE_ENV'>, name: string) {
  return pino(loggerOptions(env, name));
}
export type Logger = pino.Logger;

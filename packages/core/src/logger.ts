import pino, { type DestinationStream, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
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

type LogEnv = Pick<Env, 'LOG_LEVEL' | 'NODE_ENV'> & Partial<Pick<Env, 'LOG_FORMAT'>>;

/**
 * Readable lines for a person at a terminal (`npm start`); JSON everywhere
 * else (files, pipes, CI, containers, production), where machines read logs.
 */
export function wantsPrettyLogs(env: LogEnv, isTty: boolean): boolean {
  const format = env.LOG_FORMAT ?? 'auto';
  if (format !== 'auto') return format === 'pretty';
  return isTty && env.NODE_ENV !== 'production';
}

export function createLogger(env: LogEnv, name: string) {
  const options = loggerOptions(env, name);
  if (!wantsPrettyLogs(env, process.stdout.isTTY === true)) return pino(options);
  return pino(options, prettyStream());
}

/** pino-pretty in process (no worker thread), so the bundled server needs nothing resolvable at run time. */
export function prettyStream(destination?: NodeJS.WritableStream): DestinationStream {
  return pretty({
    colorize: destination === undefined,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    ...(destination ? { destination } : {}),
  });
}
export type Logger = pino.Logger;

/**
 * Runs one start-up phase; if it is still running after `afterMs`, logs one
 * line saying what it does, so a slow first start reads as work, not a hang.
 */
export async function slowPhase<T>(
  log: Logger | undefined,
  what: string,
  run: () => Promise<T>,
  afterMs = 2000,
): Promise<T> {
  const timer = log ? setTimeout(() => log.info(`${what}…`), afterMs) : undefined;
  try {
    return await run();
  } finally {
    clearTimeout(timer);
  }
}

import type { FastifyBaseLogger } from 'fastify';

type Bindings = Record<string, unknown>;
type LogFn = (...args: unknown[]) => void;
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

/**
 * The per-request logger, created only when a request logs something.
 *
 * Fastify gives every request `logger.child({reqId}, {})`; with the redaction
 * options of @portal/core that child costs a formatter rebuild and a redacted
 * serialisation of its bindings per request (the CPU profile of issue 11.6),
 * while a request on the hot path logs nothing. This stands in for the child:
 * the first call of an enabled level creates the real child (same bindings, so
 * the same lines as before); disabled levels stay no-ops, as with pino.
 */
export class LazyChildLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bound: Bindings,
  ) {}

  /** The real child logger (created on first use). */
  materialize(): FastifyBaseLogger {
    return (this.real ??= this.parent.child(this.bound));
  }

  get level(): string {
    return (this.real ?? this.parent).level;
  }

  set level(value: string) {
    this.materialize().level = value;
  }

  isLevelEnabled(level: string): boolean {
    const l = (this.real ?? this.parent) as { isLevelEnabled?: (l: string) => boolean };
    return l.isLevelEnabled ? l.isLevelEnabled(level) : true;
  }

  bindings(): Bindings {
    const real = this.real as unknown as { bindings?: () => Bindings } | undefined;
    return real?.bindings ? real.bindings() : { ...this.bound };
  }

  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.materialize().child(bindings, options);
  }

  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;

  silent() {}
}

for (const level of LEVELS) {
  Object.defineProperty(LazyChildLogger.prototype, level, {
    value: function (this: LazyChildLogger, ...args: unknown[]) {
      if (!this.isLevelEnabled(level)) return;
      (this.materialize() as unknown as Record<string, LogFn>)[level]!(...args);
    },
  });
}

/**
 * Fastify's `childLoggerFactory`: lazy, unless the route has its own logger
 * options (level, serializers), which are applied at once as before.
 */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  opts: Record<string, unknown> | undefined,
): FastifyBaseLogger {
  if (opts && Object.keys(opts).length > 0) return logger.child(bindings, opts);
  return new LazyChildLogger(logger, bindings) as unknown as FastifyBaseLogger;
}

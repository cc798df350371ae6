import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '@portal/core';
import { lazyChildLogger, LazyChildLogger } from './lazy-logger';

function capture(level = 'info') {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  const log = pino(loggerOptions({ LOG_LEVEL: level as never, NODE_ENV: 'test' as never }, 'gw'), stream);
  return { log, lines };
}

describe('lazyChildLogger', () => {
  it('writes the same lines as a child logger, redaction included', () => {
    const { log, lines } = capture();
    const lazy = lazyChildLogger(log as never, { reqId: 'r-1' }, {});
    expect(lazy).toBeInstanceOf(LazyChildLogger);
    lazy.info({ token: 'secret-token', user: 5 }, 'access token refused');
    log.child({ reqId: 'r-1' }).info({ token: 'secret-token', user: 5 }, 'access token refused');
    expect(lines).toHaveLength(2);
    const [a, b] = lines.map(({ time: _t, ...rest }) => rest);
    expect(a).toEqual(b);
    expect(a).toMatchObject({ reqId: 'r-1', token: '[redacted]', msg: 'access token refused' });
  });

  it('creates no child while nothing is logged, nor for disabled levels', () => {
    const { log, lines } = capture('warn');
    let children = 0;
    const parent = {
      ...log,
      child: (...a: unknown[]) => (children++, (log.child as never as (...x: unknown[]) => unknown)(...a)),
      level: 'warn',
      isLevelEnabled: (l: string) => log.isLevelEnabled(l),
    };
    const lazy = lazyChildLogger(parent as never, { reqId: 'r-2' }, {});
    lazy.info('not written');
    lazy.debug('not written');
    expect(children).toBe(0);
    lazy.warn({ a: 1 }, 'written');
    lazy.error('written too');
    expect(children).toBe(1);
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ['r-2', 'written'],
      ['r-2', 'written too'],
    ]);
  });

  it('applies route logger options at once', () => {
    const { log } = capture();
    const child = lazyChildLogger(log as never, { reqId: 'r-3' }, { level: 'error' });
    expect(child).not.toBeInstanceOf(LazyChildLogger);
    expect(child.level).toBe('error');
  });
});

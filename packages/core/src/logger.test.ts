import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions, prettyStream, wantsPrettyLogs } from './logger';

describe('log redaction', () => {
  it('never writes credentials, cookies or tokens', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino(loggerOptions({ LOG_LEVEL: 'info', NODE_ENV: 'test' }, 't'), sink);
    log.info(
      { req: { headers: { authorization: 'Bearer abc.def', cookie: 'rt=secret-cookie' } } },
      'request',
    );
    log.info(
      { body: { password: 'Hunter2!x', new_password: 'N3w!pass', token: 'tok-123', code: '654321' } },
      'body',
    );
    const out = lines.join('\n');
    for (const secret of ['abc.def', 'secret-cookie', 'Hunter2!x', 'N3w!pass', 'tok-123', '654321']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('[redacted]');
  });
});

describe('log format', () => {
  it('is readable on a terminal outside production, JSON for files, CI and production', () => {
    const dev = { LOG_LEVEL: 'info', NODE_ENV: 'development' } as const;
    expect(wantsPrettyLogs(dev, true)).toBe(true);
    expect(wantsPrettyLogs(dev, false)).toBe(false);
    expect(wantsPrettyLogs({ ...dev, NODE_ENV: 'production' }, true)).toBe(false);
    expect(wantsPrettyLogs({ ...dev, LOG_FORMAT: 'json' }, true)).toBe(false);
    expect(wantsPrettyLogs({ ...dev, LOG_FORMAT: 'pretty' }, false)).toBe(true);
  });

  it('pretty lines are plain text and still redacted', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino(loggerOptions({ LOG_LEVEL: 'info', NODE_ENV: 'test' }, 'gateway'), prettyStream(sink));
    log.info({ body: { password: 'Hunter2!x' } }, 'Portal ready');
    await new Promise((r) => setTimeout(r, 50));
    const out = lines.join('');
    expect(out).toMatch(/INFO.*\(gateway\): Portal ready/);
    expect(out).not.toContain('Hunter2!x');
    expect(() => JSON.parse(out)).toThrow();
  });
});

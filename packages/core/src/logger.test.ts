import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger';

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

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * pg-boss leaves the promise of a job's completion unawaited: a Postgres
 * failure there must not end the worker's process, while any other unhandled
 * rejection still does. Run in a child process, where no test runner listens.
 */
function runChild(rejection: 'engine' | 'other') {
  const script = `
    import { EngineDb, keepEngineRejections } from './src/engine-db.ts';
    const lines = [];
    const log = { warn: (fields, message) => lines.push(message) };
    keepEngineRejections(log);
    keepEngineRejections(log); // once per process, however many workers start
    const failing = { query: async () => { throw new Error('Cannot use a pool after calling end on the pool'); } };
    const engine = new EngineDb(failing);
    ${rejection === 'engine' ? `void engine.executeSql('select 1');` : `void Promise.reject(new Error('ours'));`}
    setTimeout(() => { process.stdout.write(JSON.stringify({ lines, inFlight: engine.inFlight })); }, 50);
  `;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: join(import.meta.dirname, '..'),
    encoding: 'utf8',
  });
}

describe('the job engine adapter', () => {
  it('logs a failed engine call nobody awaited instead of ending the process', () => {
    const run = runChild('engine');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      lines: ['job engine could not record a job outcome; the job is retried when its attempt expires'],
      inFlight: 0,
    });
  }, 30_000);

  it('still ends the process on any other unhandled rejection', () => {
    const run = runChild('other');
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('ours');
    expect(run.stdout).toBe('');
  }, 30_000);
});

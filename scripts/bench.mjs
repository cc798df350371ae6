#!/usr/bin/env node
// Runs the benchmarks of tests/bench (not part of `npm test`) through vitest
// with their own config (SQL imports as text, workspace resolution as in the
// tests), after building what is stale. Usage: npm run bench [-- <file filter>]. Finds Postgres and Redis as
// `npm test` does (tests/bench/find-servers.ts); each bench creates (and keeps) its own database.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
// The stack benches run the server bundles and the web build: never measure stale ones.
const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--if-stale'], {
  stdio: 'inherit',
  cwd: root,
});
if (built.status !== 0) process.exit(built.status ?? 1);
const vitest = join(root, 'node_modules/.bin/vitest');
const args = ['run', '--config', 'tests/bench/vitest.bench.config.ts', ...process.argv.slice(2)];
const run = spawnSync(vitest, args, { stdio: 'inherit', cwd: root, env: process.env });
process.exit(run.status ?? 1);

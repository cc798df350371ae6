#!/usr/bin/env node
// Runs the benchmarks of tests/bench (not part of `npm test`) through vitest
// with their own config (SQL imports as text, workspace resolution as in the
// tests). Usage: npm run bench [-- <file filter>]. Finds Postgres and Redis as
// `npm test` does (tests/bench/find-servers.ts); each bench creates (and keeps) its own database.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const vitest = join(root, 'node_modules/.bin/vitest');
const args = ['run', '--config', 'tests/bench/vitest.bench.config.ts', ...process.argv.slice(2)];
const run = spawnSync(vitest, args, { stdio: 'inherit', cwd: root, env: process.env });
process.exit(run.status ?? 1);

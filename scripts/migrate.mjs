// `npm run migrate`: build if needed, then apply migrations and seed demo data per SEED_SCALE (no servers started).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from './build.mjs';
import { ensureInstalled, ROOT } from './lib.mjs';

if ((await ensureInstalled()) !== 0) process.exit(1);
if ((await build({ ifStale: true })) !== 0) process.exit(1);
spawn(process.execPath, [join(ROOT, 'services', 'runner', 'dist', 'main.js'), 'migrate'], {
  cwd: ROOT,
  stdio: 'inherit',
}).on('exit', (code) => process.exit(code ?? 1));

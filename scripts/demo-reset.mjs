// `npm run demo:reset`: build if needed, then put the demo data back to its starting state (runner mode `reset`:
// services/runner/src/reset.ts). Stop `npm start` first when it runs on the embedded database.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from './build.mjs';
import { ensureInstalled, ROOT } from './lib.mjs';

if ((await ensureInstalled()) !== 0) process.exit(1);
if ((await build({ ifStale: true })) !== 0) process.exit(1);
spawn(
  process.execPath,
  [join(ROOT, 'services', 'runner', 'dist', 'main.js'), 'reset', ...process.argv.slice(2)],
  { cwd: ROOT, stdio: 'inherit' },
).on('exit', (code) => process.exit(code ?? 1));

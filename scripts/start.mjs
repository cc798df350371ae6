// `npm start`: install (pnpm through npm), build what changed, then run the embedded portal
// (migrations, demo data, four services and the gateway in one process) on http://localhost:${PORT:-8080}.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from './build.mjs';
import { ensureInstalled, ROOT } from './lib.mjs';

if ((await ensureInstalled()) !== 0) process.exit(1);
if ((await build({ ifStale: true })) !== 0) process.exit(1);

const child = spawn(
  process.execPath,
  ['--enable-source-maps', join(ROOT, 'services', 'runner', 'dist', 'main.js'), 'all'],
  {
    cwd: ROOT,
    stdio: 'inherit',
  },
);
// Ctrl-C reaches the child through the terminal's process group too; a signal sent to us alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));

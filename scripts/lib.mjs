// Shared by `npm start` and `npm test`: plain Node, no dependencies (they run before the install).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** pnpm comes through npm: corepack's download fails on these machines. */
export const PNPM = 'pnpm@10.34.8';

export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(1);
    });
  });
}

export const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
export const pnpm = (args, options) => run('npx', ['-y', PNPM, ...args], options);

function workspaceManifests() {
  const files = ['package.json', 'pnpm-workspace.yaml', 'pnpm-lock.yaml'];
  for (const group of ['packages', 'services']) {
    for (const name of readdirSync(join(ROOT, group))) files.push(join(group, name, 'package.json'));
  }
  files.push('gateway/package.json', 'web/package.json', 'tests/package.json');
  return files.filter((f) => existsSync(join(ROOT, f)));
}

/** Installs with pnpm unless node_modules already matches the manifests and lockfile. */
export async function ensureInstalled() {
  const hash = createHash('sha256');
  for (const f of workspaceManifests()) hash.update(f).update(readFileSync(join(ROOT, f)));
  const digest = hash.digest('hex');
  const stamp = join(ROOT, 'node_modules', '.portal-install-stamp');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return 0;
  const frozen = existsSync(join(ROOT, 'pnpm-lock.yaml')) ? ['--frozen-lockfile'] : [];
  const code = await pnpm(['install', ...frozen, '--reporter=append-only']);
  if (code === 0) writeFileSync(stamp, digest);
  return code;
}

/** Newest modification time under the given paths (files or directories). */
export function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) {
      for (const e of readdirSync(p)) if (e !== 'node_modules' && e !== 'dist') visit(join(p, e));
    } else newest = Math.max(newest, s.mtimeMs);
  };
  for (const p of paths) visit(join(ROOT, p));
  return newest;
}

export function readStamp(name) {
  const file = join(ROOT, '.data', 'build', `${name}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}
export function writeStamp(name, value) {
  const file = join(ROOT, '.data', 'build', `${name}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

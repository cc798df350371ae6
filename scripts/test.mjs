// `npm test`: install, build, format and lint, typecheck, unit, integration and browser tests; one summary at the end.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from './build.mjs';
import { bin, ensureInstalled, ROOT, run } from './lib.mjs';

const vitest = (...projects) => run(bin('vitest'), ['run', ...projects.flatMap((p) => ['--project', p])]);
const hasTests = (dir) =>
  existsSync(join(ROOT, dir)) &&
  readdirSync(join(ROOT, dir), { recursive: true }).some((f) => String(f).endsWith('.test.ts'));

const steps = [
  ['install', () => ensureInstalled()],
  ['build', () => build({ ifStale: true })],
  ['format', () => run(bin('prettier'), ['--check', '--log-level', 'warn', '.'])],
  ['lint', () => run(bin('eslint'), ['.', '--max-warnings', '0'])],
  [
    'typecheck',
    // Three programs: the server side (tsconfig.json), the browser tests (DOM types) and the web app.
    async () =>
      (await run(bin('tsc'), ['-p', 'tsconfig.json'])) ||
      (await run(bin('tsc'), ['-p', 'tests/e2e/tsconfig.json'])) ||
      run(bin('tsc'), ['-p', 'web/tsconfig.json']),
  ],
  ['unit', () => vitest('unit', 'web')],
  ['integration', () => vitest('integration', 'integration-isolated')],
  ['e2e', () => (hasTests('tests/e2e') ? vitest('e2e') : 'skipped: no browser tests yet')],
];

const results = [];
for (const [name, fn] of steps) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  let outcome;
  try {
    outcome = await fn();
  } catch (error) {
    console.error(error);
    outcome = 1;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const status = typeof outcome === 'string' ? outcome : outcome === 0 ? 'passed' : 'FAILED';
  results.push({ name, status, seconds });
  // Without dependencies or a build nothing else can run.
  if ((name === 'install' || name === 'build') && status === 'FAILED') break;
}

console.log('\n=== summary ===');
for (const r of results)
  console.log(`  ${r.name.padEnd(12)} ${r.status.padEnd(32)} ${r.seconds.padStart(7)} s`);
const failed = results.filter((r) => r.status === 'FAILED');
console.log(
  failed.length
    ? `\n${failed.length} step(s) failed: ${failed.map((r) => r.name).join(', ')}`
    : '\nall steps passed',
);
process.exit(failed.length || results.length < steps.length ? 1 : 0);

// `npm test`: install, build, then the checks side by side (format, lint, three typecheck programs, unit and
// web tests), then the integration and the browser tests; one summary at the end.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from './build.mjs';
import { bin, ensureInstalled, ROOT, run, runCaptured } from './lib.mjs';

const vitestArgs = (...projects) => ['run', ...projects.flatMap((p) => ['--project', p])];
const hasTests = (dir) =>
  existsSync(join(ROOT, dir)) &&
  readdirSync(join(ROOT, dir), { recursive: true }).some((f) => String(f).endsWith('.test.ts'));

/**
 * Checks that only read the tree run at once, each in its own process (their output held back and printed
 * as each ends): on a 2-core machine the group takes about half the sum of its parts.
 */
const checks = [
  ['format', bin('prettier'), ['--check', '--log-level', 'warn', '.']],
  ['lint', bin('eslint'), ['.', '--max-warnings', '0']],
  // Three programs: the server side (tsconfig.json), the browser tests (DOM types) and the web app.
  ['typecheck', bin('tsc'), ['-p', 'tsconfig.json']],
  ['typecheck e2e', bin('tsc'), ['-p', 'tests/e2e/tsconfig.json']],
  ['typecheck web', bin('tsc'), ['-p', 'web/tsconfig.json']],
  ['unit', bin('vitest'), vitestArgs('unit', 'web')],
];

const results = [];
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);
const record = (name, outcome, started) =>
  results.push({
    name,
    status: typeof outcome === 'string' ? outcome : outcome === 0 ? 'passed' : 'FAILED',
    seconds: seconds(started),
  });

async function step(name, fn) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  let outcome;
  try {
    outcome = await fn();
  } catch (error) {
    console.error(error);
    outcome = 1;
  }
  record(name, outcome, started);
  return outcome;
}

async function checksSideBySide() {
  const started = Date.now();
  console.log(`\n=== ${checks.map(([name]) => name).join(', ')} (side by side) ===`);
  const outcomes = await Promise.all(
    checks.map(async ([name, command, args]) => {
      const own = Date.now();
      const { code, output } = await runCaptured(command, args);
      console.log(`\n--- ${name}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds(own)} s ---`);
      if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
      record(`  ${name}`, code, own);
      return code;
    }),
  );
  const failed = outcomes.some((c) => c !== 0);
  record('checks', failed ? 1 : 0, started);
}

// Without dependencies or a build nothing else can run.
const prepared =
  (await step('install', () => ensureInstalled())) === 0 &&
  (await step('build', () => build({ ifStale: true }))) === 0;
if (prepared) {
  await checksSideBySide();
  await step('integration', () => run(bin('vitest'), vitestArgs('integration', 'integration-isolated')));
  await step('e2e', () =>
    hasTests('tests/e2e') ? run(bin('vitest'), vitestArgs('e2e')) : 'skipped: no browser tests yet',
  );
}

console.log('\n=== summary ===');
for (const r of results)
  console.log(`  ${r.name.padEnd(16)} ${r.status.padEnd(32)} ${r.seconds.padStart(7)} s`);
const failed = results.filter((r) => r.status === 'FAILED' && !r.name.startsWith(' '));
console.log(
  failed.length
    ? `\n${failed.length} step(s) failed: ${failed.map((r) => r.name).join(', ')}`
    : '\nall steps passed',
);
process.exit(failed.length || !prepared ? 1 : 0);

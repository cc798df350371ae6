/**
 * `npm run stack`: the production topology on this machine (stack.ts) until
 * Ctrl-C. Builds first when the bundles are stale; the first run seeds
 * 1,000,000 cases (SEED_SCALE=large, about 15 minutes), later runs reuse the
 * database (STACK_DATABASE, default portal_stack).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { load } from './process-meter';
import { defaultStackOptions, ROOT, startProductionStack } from './stack';

const build = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--if-stale'], {
  stdio: 'inherit',
  cwd: ROOT,
});
if (build.status !== 0) process.exit(build.status ?? 1);

const options = defaultStackOptions();
const stack = await startProductionStack(options);
console.log(`stack ready (load average ${load()}); logs in ${options.logDir}`);
for (const p of stack.processes)
  console.log(`  ${p.name.padEnd(14)} pid ${String(p.pid).padEnd(8)} ${p.url}`);
console.log(
  `the portal: ${stack.gatewayUrls.map((u) => u.replace('127.0.0.1', 'acme.localhost')).join(' and ')} (demo accounts as in the README)`,
);
const stop = () => {
  console.log('stopping');
  void stack.stop().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

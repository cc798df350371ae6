// Builds the server bundles (esbuild) and the web app (vite). `--if-stale` skips parts whose inputs did not change.
// The web build prints one summary line; `--report` (or BUILD_REPORT=1) adds the bundle report, every chunk with
// its raw and gzip size (always written to web/dist/bundle-report.json).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bin, newestMtime, readStamp, ROOT, run, writeStamp } from './lib.mjs';

const SERVER_INPUTS = ['packages', 'services', 'gateway/src', 'pnpm-lock.yaml', 'scripts/build.mjs'];
const WEB_INPUTS = [
  'web/src',
  'web/index.html',
  'web/public',
  'web/vite.config.ts',
  'packages/contracts/src',
  'pnpm-lock.yaml',
];
const SERVER_OUTPUTS = ['services/runner/dist/main.js', 'gateway/dist/server.js'];

async function buildServer() {
  const esbuild = await import(pathToFileURL(join(ROOT, 'node_modules', 'esbuild', 'lib', 'main.js')).href);
  // Workspace packages are bundled from source; npm dependencies stay external (installed in node_modules).
  const externalDeps = {
    name: 'external-deps',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path.startsWith('@portal/') || args.path.startsWith('node:')
          ? undefined
          : { path: args.path, external: true },
      );
    },
  };
  const result = await esbuild.build({
    entryPoints: {
      'services/runner/dist/main': 'services/runner/src/main.ts',
      'gateway/dist/server': 'gateway/src/server.ts',
    },
    absWorkingDir: ROOT,
    outdir: '.',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    loader: { '.sql': 'text' },
    plugins: [externalDeps],
    logLevel: 'warning',
    metafile: true,
  });
  checkExternals(result.metafile);
}

/**
 * A bundle imports its npm dependencies at run time from its own package's
 * node_modules (pnpm does not hoist), so each entry package must declare them.
 */
function checkExternals(metafile) {
  const owners = { 'services/runner/dist/main.js': 'services/runner', 'gateway/dist/server.js': 'gateway' };
  const problems = [];
  for (const [output, meta] of Object.entries(metafile.outputs)) {
    const owner = owners[output];
    if (!owner) continue;
    const manifest = JSON.parse(readFileSync(join(ROOT, owner, 'package.json'), 'utf8'));
    const declared = new Set(Object.keys(manifest.dependencies ?? {}));
    const needed = new Set(
      meta.imports
        .filter((i) => i.external && !i.path.startsWith('node:'))
        .map((i) =>
          i.path.startsWith('@') ? i.path.split('/').slice(0, 2).join('/') : i.path.split('/')[0],
        ),
    );
    const missing = [...needed].filter((n) => !declared.has(n));
    if (missing.length) problems.push(`${owner}/package.json must list: ${missing.join(', ')}`);
  }
  if (problems.length)
    throw new Error(`Server bundle dependencies are not declared:\n  ${problems.join('\n  ')}`);
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** One line from web/dist/bundle-report.json: chunk count, JS and CSS gzip totals, the first load, the largest chunk. */
function webSummary(ms) {
  const file = join(ROOT, 'web', 'dist', 'bundle-report.json');
  const head = `web app built in ${(ms / 1000).toFixed(1)} s`;
  if (!existsSync(file)) return `${head} (no bundle report)`;
  const { initialJsGzip, chunks } = JSON.parse(readFileSync(file, 'utf8'));
  if (!chunks.length) return `${head} (no chunks)`;
  const sum = (ext) => chunks.filter((c) => c.file.endsWith(ext)).reduce((s, c) => s + c.gzip, 0);
  const largest = chunks.reduce((a, b) => (b.gzip > a.gzip ? b : a));
  const name = largest.file.replace(/-[\w-]{8}(\.\w+)$/, '$1');
  return (
    `${head}: ${chunks.length} chunks, gzip JS ${kb(sum('.js'))} + CSS ${kb(sum('.css'))}, ` +
    `first load ${kb(initialJsGzip)} JS, largest ${name} ${kb(largest.gzip)}` +
    (reportWanted() ? '' : ' (every chunk: npm run build -- --report, or BUILD_REPORT=1)')
  );
}

const reportWanted = () => process.env.BUILD_REPORT === '1' || process.argv.includes('--report');

export async function build({ ifStale = false } = {}) {
  const serverMtime = newestMtime(SERVER_INPUTS);
  const serverStamp = readStamp('server');
  if (
    !ifStale ||
    serverStamp?.mtime !== serverMtime ||
    !SERVER_OUTPUTS.every((f) => existsSync(join(ROOT, f)))
  ) {
    const started = Date.now();
    await buildServer();
    writeStamp('server', { mtime: serverMtime });
    console.log(`server bundles built in ${Date.now() - started} ms`);
  }
  const webMtime = newestMtime(WEB_INPUTS);
  const webStamp = readStamp('web');
  if (!ifStale || webStamp?.mtime !== webMtime || !existsSync(join(ROOT, 'web/dist/index.html'))) {
    const started = Date.now();
    const code = await run(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: join(ROOT, 'web') });
    if (code !== 0) return code;
    // The bundle report (every chunk with its gzip size) is always measured, printed only on request.
    await run(process.execPath, [join(ROOT, 'scripts', 'bundle-report.mjs')], {
      stdio: ['ignore', reportWanted() ? 'inherit' : 'ignore', 'inherit'],
    });
    console.log(webSummary(Date.now() - started));
    writeStamp('web', { mtime: webMtime });
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  build({ ifStale: process.argv.includes('--if-stale') }).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/**
 * Gateway benchmark (issues 5 and 11.6), not part of `npm test`:
 *
 *   npm run bench -- gateway          (Postgres/Redis found as npm test does)
 *
 * wrk (Debian package, installed when missing) in its own process drives, on
 * loopback at 50 connections, the same trivial upstream reached
 *   1. directly, 2. through nginx with upstream keep-alive and 3. plain nginx (one worker each),
 *   4. through a bare @fastify/http-proxy (the reference of issue 11.6),
 *   5. through the gateway with JWT verification, policy, cached profile, rate limit and proxy,
 * then a lookup answered from the gateway's cache against the uncached one
 * (each request a query never seen, so a MISS served by the real case service
 * on Postgres, called with a signed context; needs the server bundle built),
 * both through a second gateway process of the same build.
 * The configurations run interleaved, BENCH_ROUNDS rounds (default 3) of
 * BENCH_SECONDS (default 5) each, so a noisy machine hits all of them alike;
 * the table shows medians over the rounds, and ratios are taken per round,
 * then the median. CPU µs/request is the server process's own CPU time
 * (/proc/<pid>/stat, user + system, all threads; nginx: master + workers)
 * divided by the requests wrk completed; "upstream" is the trivial upstream's.
 *
 * BENCH_GATEWAY_BEFORE=<dir of another checkout> adds that tree's gateway as a
 * configuration (before/after in one run), e.g.
 *   git worktree add /tmp/gw-before HEAD
 *   ln -s /work/main/gateway/node_modules /tmp/gw-before/gateway/node_modules
 *   BENCH_GATEWAY_BEFORE=/tmp/gw-before npm run bench -- gateway
 * BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the gateway process there;
 * `node tests/bench/cpu-profile-top.mjs <file>` prints its top self-time functions.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, it } from 'vitest';
import { claimsFor, ed25519Signer, profile } from '../integration/gateway/fakes';
import { cpuMicros, ensureDebianTool, ensureWrk, wrk } from './wrk';

const env = process.env;
const ROOT = resolve(__dirname, '../..');
const SECONDS = Number(env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
/** Offered rate of the latency phase: well below every configuration's capacity, so p99 is service time, not queueing. */
const PACED_RPS = Number(env.BENCH_PACED_RPS ?? 1000);
const children: ChildProcess[] = [];
let profiled = 0;

const freePort = () =>
  new Promise<number>((r) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => r(p));
    });
  });

function child(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ proc: ChildProcess; port: number }> {
  const proc = spawn(
    process.execPath,
    [
      // BENCH_CPU_PROF=<dir> writes V8 CPU profiles of the gateway and the bare proxy to <dir>/<mode>-<port order>
      // (open them in Chrome DevTools, or: node tests/bench/cpu-profile-top.mjs <file>).
      ...(env.BENCH_CPU_PROF && (args[0] === 'gateway' || args[0] === 'bare')
        ? ['--cpu-prof', `--cpu-prof-dir=${join(env.BENCH_CPU_PROF, `${args[0]}-${++profiled}`)}`]
        : []),
      '--import',
      'tsx',
      join(ROOT, 'tests/bench/gateway-bench-server.ts'),
      ...args,
    ],
    {
      cwd: join(ROOT, 'tests'),
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...env, ...extraEnv },
    },
  );
  children.push(proc);
  return new Promise((resolveReady, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      const m = /READY (\d+)/.exec(d.toString());
      if (m) resolveReady({ proc, port: Number(m[1]) });
    });
    proc.on('exit', (code) => reject(new Error(`bench child ${args[0]} exited ${code}`)));
  });
}

async function waitPort(port: number) {
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on ${port}`);
}

/** The case service on its own database (migrations carry the reference data), from the built bundle. */
async function realCaseService(secret: string): Promise<{ url: string; pid: number } | undefined> {
  const bundle = join(ROOT, 'services/runner/dist/main.js');
  if (!env.DATABASE_URL || !existsSync(bundle)) {
    console.log('(lookup comparison skipped: needs DATABASE_URL and node scripts/build.mjs)');
    return undefined;
  }
  const name = 'portal_bench_gateway';
  const admin = new pg.Client({ connectionString: env.DATABASE_URL });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (!exists.rowCount) await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(env.DATABASE_URL);
  u.pathname = `/${name}`;
  const common = {
    ...env,
    DATABASE_URL: u.toString(),
    INTERNAL_CONTEXT_SECRET: secret,
    LOG_LEVEL: 'error',
    SEED_SCALE: 'none',
    DATA_DIR: join(tmpdir(), 'gw-bench-data'),
  };
  const m = spawnSync(process.execPath, [bundle, 'migrate'], { cwd: ROOT, env: common, stdio: 'inherit' });
  if (m.status !== 0) throw new Error('migrate failed');
  const port = await freePort();
  const proc = spawn(process.execPath, [bundle, 'case'], {
    cwd: ROOT,
    env: { ...common, CASE_SERVICE_PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'inherit',
  });
  children.push(proc);
  await waitPort(port);
  return { url: `http://127.0.0.1:${port}`, pid: proc.pid! };
}

afterAll(async () => {
  // Children (and nginx) never outlive the bench, also when it fails; SIGINT lets a CPU profile be written.
  for (const c of children.reverse()) c.kill(env.BENCH_CPU_PROF ? 'SIGINT' : 'SIGTERM');
  if (env.BENCH_CPU_PROF) await new Promise((r) => setTimeout(r, 2000));
});

interface Config {
  key: string;
  name: string;
  url: string;
  headers?: Record<string, string>;
  /** The server under test (its CPU per request); undefined when nothing runs there (skipped config). */
  pid: number | undefined;
  withChildren?: boolean;
  /** Unique lookup paths: every request a cache miss. */
  unique?: boolean;
  /** Another process whose CPU counts for this configuration (the case service behind a miss). */
  alsoPid?: number;
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpuUs: number;
  upstreamCpuUs: number;
  alsoCpuUs: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (n: number, digits = 0) => n.toFixed(digits);

it('gateway vs bare proxy vs nginx vs direct (wrk)', async () => {
  const wrkBin = ensureWrk();
  const secret = randomBytes(32).toString('base64url');
  const signer = ed25519Signer('bench-key');
  const token = signer.token(claimsFor(1000006, 'acme', 'chargeback-portal', 3600));
  const up = await child(['upstream', JSON.stringify({ jwks: signer.jwks, profile: profile(1000006) })]);
  const upstreamUrl = `http://127.0.0.1:${up.port}`;

  // nginx with our own config and prefix directory (no root paths).
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-nginx-'));
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, d));
  const nginxPort = await freePort();
  const plainNginxPort = await freePort();
  writeFileSync(
    join(dir, 'nginx.conf'),
    readFileSync(join(ROOT, 'tests/bench/nginx/nginx.conf.template'), 'utf8')
      .replaceAll('{{DIR}}', dir)
      .replaceAll('{{PORT}}', String(nginxPort))
      .replaceAll('{{PLAIN_PORT}}', String(plainNginxPort))
      .replaceAll('{{UPSTREAM_PORT}}', String(up.port)),
  );
  // The package's own service is not started: our nginx runs with its own config, prefix and ports.
  const nginxBin = ensureDebianTool('nginx-light', ['/usr/sbin/nginx', '/usr/bin/nginx']);
  const nginx = spawn(nginxBin, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: 'inherit',
  });
  children.push(nginx);
  await waitPort(nginxPort);

  // Tenant config as shipped, with rate limits out of the way of a load test.
  const tenantDir = mkdtempSync(join(tmpdir(), 'gw-bench-tenants-'));
  cpSync(join(ROOT, 'config/tenants'), tenantDir, { recursive: true });
  for (const f of readdirSync(tenantDir).filter((x) => x.endsWith('.yaml'))) {
    const p = join(tenantDir, f);
    writeFileSync(
      p,
      readFileSync(p, 'utf8').replace(
        /rate_limits:.*\n/,
        'rate_limits: { user_per_minute: 100000000, auth_ip_per_minute: 1000, auth_username_per_minute: 1000 }\n',
      ),
    );
  }
  const caseService = await realCaseService(secret);
  const runPrefix = `bench:gw:${randomBytes(4).toString('hex')}:`;
  const gatewayConfig = (gatewayModule?: string) =>
    JSON.stringify({
      tenantDir,
      secret,
      redisUrl: env.REDIS_URL,
      keyPrefix: runPrefix,
      upstreams: {
        case: caseService?.url ?? upstreamUrl,
        user: upstreamUrl,
        docs: upstreamUrl,
        builder: upstreamUrl,
      },
      ...(gatewayModule ? { gatewayModule } : {}),
    });
  const gw = await child(['gateway', gatewayConfig()]);
  const before = env.BENCH_GATEWAY_BEFORE
    ? await child(['gateway', gatewayConfig(join(resolve(env.BENCH_GATEWAY_BEFORE), 'gateway/src/index.ts'))])
    : undefined;
  // The lookups get a gateway of their own: the uncached run fills the in-process cache with thousands of
  // answers, whose heap would make the proxy configuration's GC dearer in the rounds after it.
  const lookupGw = caseService ? await child(['gateway', gatewayConfig()]) : undefined;
  const bare = await child(['bare', JSON.stringify({ upstream: upstreamUrl })]);
  const auth = { host: 'acme.localhost', authorization: `Bearer ${token}` };
  const gatewayUrl = `http://127.0.0.1:${gw.port}`;

  const configs: Config[] = [
    { key: 'direct', name: 'direct upstream', url: `${upstreamUrl}/docs/templates`, pid: up.proc.pid },
    {
      key: 'nginx',
      name: 'nginx (upstream keep-alive)',
      url: `http://127.0.0.1:${nginxPort}/docs/templates`,
      pid: nginx.pid,
      withChildren: true,
    },
    {
      key: 'nginx-plain',
      name: 'nginx (plain proxy_pass)',
      url: `http://127.0.0.1:${plainNginxPort}/docs/templates`,
      pid: nginx.pid,
      withChildren: true,
    },
    {
      key: 'bare',
      name: 'bare @fastify/http-proxy',
      url: `http://127.0.0.1:${bare.port}/api/docs/templates`,
      pid: bare.proc.pid,
    },
    {
      key: 'gateway',
      name: 'gateway (JWT+policy+profile+limit)',
      url: `${gatewayUrl}/api/docs/templates`,
      headers: auth,
      pid: gw.proc.pid,
    },
    ...(before
      ? [
          {
            key: 'before',
            name: 'gateway BEFORE (other tree)',
            url: `http://127.0.0.1:${before.port}/api/docs/templates`,
            headers: auth,
            pid: before.proc.pid,
          },
        ]
      : []),
    ...(caseService && lookupGw
      ? [
          {
            key: 'cached',
            name: 'gateway cached lookup (HIT)',
            url: `http://127.0.0.1:${lookupGw.port}/api/cm/gen/countries?limit=999`,
            headers: auth,
            pid: lookupGw.proc.pid,
          },
          {
            key: 'uncached',
            name: 'gateway uncached lookup (MISS)',
            url: `http://127.0.0.1:${lookupGw.port}/api/cm/gen/countries?limit=999`,
            headers: auth,
            pid: lookupGw.proc.pid,
            unique: true,
            alsoPid: caseService.pid,
          },
        ]
      : []),
  ];
  const only = env.BENCH_ONLY?.split(',').map((s) => s.trim());
  const selected = only ? configs.filter((c) => only.includes(c.key)) : configs;

  console.log(
    `\nGateway benchmark: wrk, ${CONNECTIONS} connections, ${ROUNDS} rounds x ${SECONDS} s interleaved, cache: ${env.REDIS_URL ? 'Redis' : 'in-process'}${caseService ? '' : ' (no lookup comparison: needs DATABASE_URL and node scripts/build.mjs)'}\n`,
  );
  let uniqueFrom = 0;
  /** Requests each server process answered (warm-up included): divide a CPU profile's busy time by it. */
  const served = new Map<number | undefined, number>();
  const runOnce = async (c: Config, seconds: number, pacedRps?: number): Promise<Run> => {
    const cpu0 = cpuMicros(c.pid, c.withChildren);
    const up0 = cpuMicros(up.proc.pid);
    const also0 = cpuMicros(c.alsoPid);
    const r = await wrk(wrkBin, c.url, {
      connections: CONNECTIONS,
      seconds,
      headers: c.headers,
      uniqueFrom: c.unique ? uniqueFrom : undefined,
      pacedRps,
    });
    if (c.unique) uniqueFrom += r.requests + 1000;
    served.set(c.pid, (served.get(c.pid) ?? 0) + r.requests);
    const n = Math.max(1, r.requests);
    return {
      rps: r.rps,
      p50: r.p50Ms,
      p99: r.p99Ms,
      errors: r.errors,
      cpuUs: (cpuMicros(c.pid, c.withChildren) - cpu0) / n,
      upstreamCpuUs: (cpuMicros(up.proc.pid) - up0) / n,
      alsoCpuUs: c.alsoPid ? (cpuMicros(c.alsoPid) - also0) / n : 0,
    };
  };

  // Warm-up (JIT, pools, caches), then interleaved rounds, each starting with another configuration.
  for (const c of selected) await runOnce(c, 2);
  const runs = new Map<string, Run[]>(selected.map((c) => [c.key, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = selected.map((_, i) => selected[(i + round) % selected.length]!);
    for (const c of order) {
      const r = await runOnce(c, SECONDS);
      runs.get(c.key)!.push(r);
      console.log(
        `  round ${round + 1} ${c.name.padEnd(36)} ${fmt(r.rps).padStart(6)} req/s  p99 ${fmt(r.p99, 2).padStart(6)} ms  CPU ${fmt(r.cpuUs, 1).padStart(6)} µs/req${r.errors ? `  errors ${r.errors}` : ''}`,
      );
    }
  }

  // Latency at a fixed offered rate: with wrk driving every server flat out, p99 is mostly the time a request
  // waits behind the others, so the slower server "adds" latency it would not add at a load it can carry.
  const pacedKeys = ['nginx', 'bare', 'gateway', 'before'];
  const pacedSelected = selected.filter((c) => pacedKeys.includes(c.key));
  const paced = new Map<string, Run[]>(pacedSelected.map((c) => [c.key, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = pacedSelected.map((_, i) => pacedSelected[(i + round) % pacedSelected.length]!);
    for (const c of order) paced.get(c.key)!.push(await runOnce(c, SECONDS, PACED_RPS));
  }

  if (env.BENCH_CPU_PROF)
    for (const c of selected)
      console.log(`requests served by ${c.name} (pid ${c.pid}, warm-up included): ${served.get(c.pid)}`);

  const perRound = (a: string, b: string, f: (r: Run) => number) => {
    const ra = runs.get(a);
    const rb = runs.get(b);
    if (!ra || !rb) return undefined;
    return median(ra.map((r, i) => f(r) / f(rb[i]!)));
  };
  const bareRuns = runs.get('bare');
  console.log(
    `\n${'configuration'.padEnd(36)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'CPU µs/req'.padStart(10)} ${'x bare'.padStart(7)} ${'upstream µs/req'.padStart(15)} ${'errors'.padStart(6)}`,
  );
  for (const c of selected) {
    const rs = runs.get(c.key)!;
    const ratio = bareRuns ? perRound(c.key, 'bare', (r) => r.cpuUs) : undefined;
    const also = c.alsoPid ? ` (+ case service ${fmt(median(rs.map((r) => r.alsoCpuUs)), 0)})` : '';
    console.log(
      `${c.name.padEnd(36)} ${fmt(median(rs.map((r) => r.rps))).padStart(7)} ${fmt(median(rs.map((r) => r.p50)), 2).padStart(7)} ${fmt(median(rs.map((r) => r.p99)), 2).padStart(7)} ${fmt(median(rs.map((r) => r.cpuUs)), 1).padStart(10)} ${(ratio === undefined ? '-' : `${fmt(ratio, 2)}x`).padStart(7)} ${fmt(median(rs.map((r) => r.upstreamCpuUs)), 1).padStart(15)} ${String(rs.reduce((s, r) => s + r.errors, 0)).padStart(6)}${also}`,
    );
  }
  console.log('');
  const say = (label: string, value: number | undefined, digits: number, suffix: string) => {
    if (value !== undefined) console.log(`${label.padEnd(52)} ${fmt(value, digits)}${suffix}`);
  };
  const gwRuns = runs.get('gateway');
  say(
    'gateway CPU/req / bare proxy CPU/req (per round)',
    perRound('gateway', 'bare', (r) => r.cpuUs),
    2,
    'x  (target <= 1.4x)',
  );
  if (gwRuns && bareRuns)
    console.log(
      `${''.padEnd(52)} rounds: ${gwRuns.map((r, i) => fmt(r.cpuUs / bareRuns[i]!.cpuUs, 2)).join(', ')}`,
    );
  say(
    'gateway BEFORE CPU/req / bare proxy CPU/req',
    perRound('before', 'bare', (r) => r.cpuUs),
    2,
    'x',
  );
  say(
    'gateway CPU/req / gateway BEFORE CPU/req',
    perRound('gateway', 'before', (r) => r.cpuUs),
    2,
    'x',
  );
  say(
    'gateway req/s / bare proxy req/s',
    perRound('gateway', 'bare', (r) => r.rps),
    2,
    'x',
  );
  say(
    'gateway req/s / keep-alive nginx req/s',
    perRound('gateway', 'nginx', (r) => r.rps),
    2,
    'x',
  );
  const nginxRuns = runs.get('nginx');
  if (gwRuns && nginxRuns)
    say(
      'added p99 vs keep-alive nginx, flat out (ms)',
      median(gwRuns.map((r, i) => r.p99 - nginxRuns[i]!.p99)),
      2,
      ' ms  (queueing: each at its own saturation)',
    );
  if (pacedSelected.length) {
    console.log(`\nAt ${PACED_RPS} req/s offered, ${CONNECTIONS} connections (latency without queueing):`);
    for (const c of pacedSelected) {
      const rs = paced.get(c.key)!;
      console.log(
        `  ${c.name.padEnd(36)} ${fmt(median(rs.map((r) => r.rps))).padStart(6)} req/s  p50 ${fmt(median(rs.map((r) => r.p50)), 2).padStart(5)} ms  p99 ${fmt(median(rs.map((r) => r.p99)), 2).padStart(5)} ms  CPU ${fmt(median(rs.map((r) => r.cpuUs)), 1).padStart(6)} µs/req`,
      );
    }
    const gp = paced.get('gateway');
    const np = paced.get('nginx');
    if (gp && np)
      say(
        `added p99 vs keep-alive nginx at ${PACED_RPS} req/s (ms)`,
        median(gp.map((r, i) => r.p99 - np[i]!.p99)),
        2,
        ' ms  (target <= 2 ms)',
      );
  }
  say(
    'cached / uncached lookup req/s',
    perRound('cached', 'uncached', (r) => r.rps),
    1,
    'x  (target >= 10x)',
  );
  say(
    'uncached / cached lookup CPU/req (gateway + case svc)',
    perRound('uncached', 'cached', (r) => r.cpuUs + r.alsoCpuUs),
    1,
    'x',
  );
});

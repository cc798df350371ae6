/**
 * The production topology on one machine (issue 31 §1), as separate
 * processes from the built bundles: two gateways, two case-service processes
 * behind a connection balancer (what a Kubernetes Service or compose's
 * replicas do), the user, docs and builder services, the job worker, on the
 * local Postgres and Redis, NODE_ENV=production with secrets generated into
 * the stack's DATA_DIR, objects on the filesystem store. `npm run stack`
 * starts it (stack-main.ts); the crowd, soak and faults benches drive it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createConnection } from 'node:net';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { GATEWAY_READY_PATH, SERVICE_READY_PATH } from '@portal/contracts';

export const ROOT = resolve(import.meta.dirname, '../../..');
const RUNNER = join(ROOT, 'services/runner/dist/main.js');
const GATEWAY = join(ROOT, 'gateway/dist/server.js');
const BALANCER = join(ROOT, 'tests/bench/crowd/tcp-balancer.mjs');
const REDIS_SERVER = '/usr/bin/redis-server';

export interface StackOptions {
  /** Postgres server (database name ignored); default the local one. */
  postgresUrl: string;
  /** Database of the stack, created when missing (seeded once per scale). */
  database: string;
  /** SEED_SCALE of the migrate step: large (1,000,000 cases) unless told. */
  seedScale: string;
  /** Base port: gateways base+0 and base+1, balancer base+10, services base+11…, worker base+19, Redis base+20. */
  basePort: number;
  dataDir: string;
  /** Where each process's log goes (one file per process). */
  logDir: string;
}

export const defaultStackOptions = (): StackOptions => ({
  postgresUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database: process.env.STACK_DATABASE ?? 'portal_stack',
  seedScale: process.env.SEED_SCALE ?? 'large',
  basePort: Number(process.env.STACK_BASE_PORT ?? 8100),
  dataDir: join(ROOT, '.data/stack'),
  logDir: join(ROOT, '.data/stack/logs'),
});

/** One process of the stack; `restart` starts it again with the same command. */
export interface StackProcess {
  name: string;
  /** The process's own address (gateways, services, worker, balancer). */
  url: string;
  readyPath: string;
  child: ChildProcess;
  readonly pid: number;
  kill(signal: NodeJS.Signals): void;
  restart(): Promise<void>;
  /** Resolves when the process has exited. */
  exited(): Promise<void>;
}

export interface ProductionStack {
  options: StackOptions;
  databaseUrl: string;
  gatewayUrls: string[];
  processes: StackProcess[];
  byName(name: string): StackProcess;
  stop(): Promise<void>;
}

const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/** Secrets of a production start, generated once into the stack's DATA_DIR (never committed). */
function secrets(dataDir: string) {
  const dir = join(dataDir, 'keys');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'stack-secrets.json');
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const wanted: Record<string, () => string> = {
    INTERNAL_CONTEXT_SECRET: () => randomBytes(32).toString('hex'),
    DOCS_LINK_SECRET: () => randomBytes(32).toString('hex'),
    CONNECTOR_KEY: () => randomBytes(32).toString('hex'),
    JWT_PRIVATE_KEY_FILE: () => {
      const key = join(dir, 'jwt-private.pem');
      const { privateKey } = generateKeyPairSync('ed25519');
      writeFileSync(key, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      return key;
    },
  };
  // Secrets added since the file was written are generated and kept with the others.
  const missing = Object.keys(wanted).filter((name) => !kept[name]);
  for (const name of missing) kept[name] = wanted[name]!();
  if (missing.length) writeFileSync(file, JSON.stringify(kept), { mode: 0o600 });
  return kept;
}

async function ensureDatabase(serverUrl: string, name: string) {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    const found = await c.query(`select 1 from pg_database where datname = $1`, [name]);
    if (!found.rowCount) await c.query(`create database ${pg.escapeIdentifier(name)}`);
  } finally {
    await c.end();
  }
}

/** Polls a URL until it answers 200 (the process's readiness). */
export async function waitReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await r.arrayBuffer();
      if (r.ok) return;
      last = `status ${r.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${last})`);
}

/** The handle of a process the stack supervises: `launch` starts it (again), `ready` waits for it. */
function supervised(
  name: string,
  url: string,
  readyPath: string,
  launch: () => ChildProcess,
  ready: () => Promise<void>,
): StackProcess {
  let child = launch();
  const proc: StackProcess = {
    name,
    url,
    readyPath,
    get child() {
      return child;
    },
    get pid() {
      return child.pid ?? 0;
    },
    kill: (signal) => {
      child.kill(signal);
    },
    exited: () =>
      child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise((r) => child.once('exit', () => r())),
    restart: async () => {
      await proc.exited();
      child = launch();
      await ready();
    },
  };
  return proc;
}

/** STACK_CPU_PROF=1: each process writes a V8 CPU profile into <logDir>/prof as it ends (tests/bench/cpu-profile-top.mjs). */
const profileArgs = (logDir: string) =>
  process.env.STACK_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(logDir, 'prof')}`] : [];

/** Where each process writes its heap after a GC when sent SIGWINCH (heap-probe.mjs, process-meter's heapAfterGc). */
export const heapProbeDir = (logDir: string) => join(logDir, 'heap');
const HEAP_PROBE = pathToFileURL(join(ROOT, 'tests/bench/crowd/heap-probe.mjs')).href;

function startProcess(
  name: string,
  command: string[],
  env: NodeJS.ProcessEnv,
  url: string,
  readyPath: string,
  logDir: string,
): StackProcess {
  const log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  const launch = () => {
    const child = spawn(process.execPath, [...profileArgs(logDir), '--import', HEAP_PROBE, ...command], {
      env: { ...env, HEAP_PROBE_DIR: heapProbeDir(logDir) },
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    return child;
  };
  return supervised(name, url, readyPath, launch, () => waitReady(url + readyPath));
}

/** A private redis-server; its readiness is a PING. */
function startRedis(port: number): StackProcess {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  return supervised(
    'redis',
    `redis://127.0.0.1:${port}`,
    '',
    () => spawn(REDIS_SERVER, args, { stdio: 'ignore' }),
    () => waitRedis(port),
  );
}

export async function waitRedis(port: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((done) => {
      const s = createConnection({ host: '127.0.0.1', port }, () => s.write('PING\r\n'));
      s.once('data', (d) => {
        s.destroy();
        done(d.toString().startsWith('+PONG'));
      });
      s.once('error', () => done(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`redis on ${port} did not answer`);
}

/** Runs the migrate step (migrations, then the seed once per database and scale). */
function migrate(env: NodeJS.ProcessEnv, seedScale: string) {
  const started = Date.now();
  const run = spawnSync(process.execPath, [RUNNER, 'migrate'], {
    env: { ...env, SEED_SCALE: seedScale, LOG_LEVEL: 'warn' },
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error(`migrate failed (exit ${run.status})`);
  return (Date.now() - started) / 1000;
}

export async function startProductionStack(options = defaultStackOptions()): Promise<ProductionStack> {
  for (const f of [RUNNER, GATEWAY])
    if (!existsSync(f)) throw new Error(`${f} is missing: run npm run build first`);
  mkdirSync(heapProbeDir(options.logDir), { recursive: true });
  await ensureDatabase(options.postgresUrl, options.database);
  const databaseUrl = withDb(options.postgresUrl, options.database);
  const p = options.basePort;
  const port = {
    gateways: [p, p + 1],
    balancer: p + 10,
    cases: [p + 11, p + 12],
    user: p + 13,
    docs: p + 14,
    builder: p + 15,
    worker: p + 19,
    redis: p + 20,
  };
  const local = (n: number) => `http://127.0.0.1:${n}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.STACK_LOG_LEVEL ?? 'warn',
    DATA_DIR: options.dataDir,
    DATABASE_URL: databaseUrl,
    // Its own Redis (the fault runs kill and stop it), nothing kept on disk as on these machines.
    REDIS_URL: `redis://127.0.0.1:${port.redis}`,
    ...secrets(options.dataDir),
    CASE_SERVICE_URL: local(port.balancer),
    USER_SERVICE_URL: local(port.user),
    DOCS_SERVICE_URL: local(port.docs),
    BUILDER_SERVICE_URL: local(port.builder),
    HOST: '127.0.0.1',
    // The crowd comes through a load balancer on loopback that names each client (X-Forwarded-For).
    TRUST_PROXY: '127.0.0.1',
    // The bench clients are local: the production default would ask for https cookies and a proxy.
    COOKIE_SECURE: 'false',
  };
  const seconds = migrate(env, options.seedScale);
  console.log(`stack: migrate + seed (${options.seedScale}) ${seconds.toFixed(1)} s`);

  const processes: StackProcess[] = [startRedis(port.redis)];
  // Nothing outlives the bench or `npm run stack`, however it ends.
  process.once('exit', () => processes.forEach((proc) => proc.kill('SIGKILL')));
  await waitRedis(port.redis);
  const service = (name: string, mode: string, portVar: string, n: number) =>
    startProcess(
      name,
      [RUNNER, mode],
      { ...env, [portVar]: String(n) },
      local(n),
      SERVICE_READY_PATH,
      options.logDir,
    );
  port.cases.forEach((n, i) => processes.push(service(`case-${i + 1}`, 'case', 'CASE_SERVICE_PORT', n)));
  processes.push(
    startProcess(
      'case-balancer',
      [BALANCER, String(port.balancer), ...port.cases.map(String)],
      env,
      local(port.balancer),
      '/health',
      options.logDir,
    ),
  );
  processes.push(service('user', 'user', 'USER_SERVICE_PORT', port.user));
  processes.push(service('docs', 'docs', 'DOCS_SERVICE_PORT', port.docs));
  processes.push(service('builder', 'builder', 'BUILDER_SERVICE_PORT', port.builder));
  processes.push(service('worker', 'worker', 'WORKER_PORT', port.worker));
  port.gateways.forEach((n, i) =>
    processes.push(
      startProcess(
        `gateway-${i + 1}`,
        [GATEWAY],
        { ...env, PORT: String(n), METRICS_PORT: '0' },
        local(n),
        GATEWAY_READY_PATH,
        options.logDir,
      ),
    ),
  );
  const stop = async () => {
    for (const proc of processes) proc.kill('SIGTERM');
    await Promise.race([
      Promise.all(processes.map((proc) => proc.exited())),
      new Promise((r) => setTimeout(r, 15_000)),
    ]);
    for (const proc of processes) proc.kill('SIGKILL');
  };
  try {
    for (const proc of processes.slice(1)) await waitReady(proc.url + proc.readyPath);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}; logs in ${options.logDir}`);
  }
  return {
    options,
    databaseUrl,
    gatewayUrls: port.gateways.map(local),
    processes,
    byName: (name) => {
      const found = processes.find((proc) => proc.name === name);
      if (!found) throw new Error(`no process ${name}`);
      return found;
    },
    stop,
  };
}

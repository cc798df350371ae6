/**
 * What the crowd, soak and faults benches share: the production stack, a
 * signed-in crowd holding its live-update streams, the meters, and the
 * printed tables.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { GATEWAY_READY_PATH } from '@portal/contracts';
import { GatewayRouter, runPhase, sendAs, type Crowd, type PhaseResult } from './engine';
import { ensureBenchAccounts } from './bench-accounts';
import { canRun, crowdUsers, OPERATIONS, openLiveStream } from './mix';
import { ConnectionSampler, CpuMeter, load, postgresPids } from './process-meter';
import { ROOT, startProductionStack, type ProductionStack } from './stack';

export interface CrowdBench {
  stack: ProductionStack;
  crowd: Crowd;
  meter: CpuMeter;
  connections: ConnectionSampler;
  db: pg.Pool;
  /** One phase at `rate` operations/s, with CPU and connections. */
  phase(rate: number, seconds: number): Promise<MeasuredPhase>;
  close(): Promise<void>;
}

export interface MeasuredPhase extends PhaseResult {
  /** CPU µs per request of each process (gateways, services, balancer, worker, redis, postgres, driver). */
  cpuPerRequest: Record<string, number>;
  /** CPU share of the machine's cores over the phase, per process. */
  cpuShare: Record<string, number>;
  connections: { activeMax: number; activeMean: number; totalMax: number };
  load: string;
}

const USERS = Number(process.env.CROWD_USERS ?? 100);

/**
 * Vacuums the stack's database where the server's autovacuum is off (as on these machines): the last runs'
 * writes otherwise stay as dead rows and unset visibility bits, and each run measures a database more bloated
 * than the last, not one that a production server (autovacuum on) keeps.
 */
async function vacuumWithoutAutovacuum(db: pg.Pool): Promise<void> {
  const { rows } = await db.query<{ autovacuum: string }>('show autovacuum');
  if (rows[0]?.autovacuum !== 'off') return;
  const started = Date.now();
  await db.query('vacuum (analyze)');
  console.log(
    `crowd: autovacuum is off on this server: the database vacuumed first (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

/**
 * Reads the stack's tables and indexes into the operating system's page cache (pg_prewarm 'read'), as a
 * database that has served for a while has them: right after a seed, or with other databases read since,
 * the first minutes measured the disk (10 s report timeouts at 15 operations/s, fine at 25 a minute later).
 * Skipped, with a line, where the pg_prewarm extension is not installed.
 */
async function prewarm(db: pg.Pool): Promise<void> {
  const started = Date.now();
  try {
    await db.query('create extension if not exists pg_prewarm');
  } catch (error) {
    console.log(`crowd: no prewarm (${(error as Error).message})`);
    return;
  }
  const { rows } = await db.query<{ mb: string }>(
    `select round(sum(pg_prewarm(c.oid, 'read')) * current_setting('block_size')::bigint / 1048576.0) as mb
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'i', 'm', 't') and n.nspname not in ('pg_catalog', 'information_schema')`,
  );
  console.log(
    `crowd: ${rows[0]?.mb ?? 0} MB of tables and indexes read into the page cache in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  // The figures depend on it: Postgres's own 128 MB default copies most pages in from the kernel on every read.
  const buffers = await db.query<{ shared_buffers: string }>('show shared_buffers');
  console.log(
    `crowd: Postgres shared_buffers ${buffers.rows[0]?.shared_buffers} (docker-compose.yml gives it 1GB; README 'Capacity')`,
  );
}

export async function startCrowdBench(): Promise<CrowdBench> {
  const stack = await startProductionStack();
  const users = crowdUsers(USERS);
  const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 4 });
  // The faults bench restarts Postgres: an idle client it ends is dropped and the next query opens another.
  db.on('error', () => undefined);
  await vacuumWithoutAutovacuum(db);
  await prewarm(db);
  const created = await ensureBenchAccounts(db, users);
  if (created) console.log(`crowd: ${created} bench accounts created`);
  const router = new GatewayRouter(stack.gatewayUrls, GATEWAY_READY_PATH);
  // CROWD_MIX=signin (comma-separated operation types): only those, e.g. sign-ins alone at 5/s.
  const only = process.env.CROWD_MIX?.split(',');
  const operations = only ? OPERATIONS.filter((o) => only.includes(o.type)) : OPERATIONS;
  if (!operations.length)
    throw new Error(`CROWD_MIX: no operation of ${OPERATIONS.map((o) => o.type).join(', ')}`);
  const crowd: Crowd = { users, operations, router, acknowledged: [], canRun };
  // Everyone signs in first (paced, as people arrive), then holds a live-update stream.
  const signin = OPERATIONS.find((o) => o.type === 'signin')!;
  const phase0 = await runPhase({ ...crowd, operations: [signin], users }, 10, users.length / 10);
  const notSigned = users.filter((u) => !u.token);
  for (const u of notSigned)
    await signin.run(
      u,
      (_type, request) => sendAs(router, u, users.indexOf(u), request),
      () => undefined,
    );
  if (users.some((u) => !u.token)) throw new Error(`users not signed in: ${phase0.errorExamples.join('; ')}`);
  const closers = await Promise.all(
    users.map((u, i) => openLiveStream(u, stack.gatewayUrls[i % stack.gatewayUrls.length]!)),
  );
  const meter = new CpuMeter(
    () => stack.processes.map((p) => ({ name: p.name, pid: p.pid })).filter((p) => p.pid > 0),
    () => postgresPids(db, stack.options.database),
  );
  const connections = new ConnectionSampler(db, stack.options.database);
  return {
    stack,
    crowd,
    meter,
    connections,
    db,
    phase: async (rate, seconds) => {
      connections.take();
      await meter.reset();
      const started = performance.now();
      const result = await runPhase(crowd, rate, seconds);
      const wallSeconds = (performance.now() - started) / 1000;
      const cpu = await meter.read();
      const cpuPerRequest: Record<string, number> = {};
      const cpuShare: Record<string, number> = {};
      for (const [name, us] of Object.entries(cpu)) {
        cpuPerRequest[name] = us / Math.max(result.requests, 1);
        cpuShare[name] = us / 1e6 / wallSeconds;
      }
      return { ...result, cpuPerRequest, cpuShare, connections: connections.take(), load: load() };
    },
    close: async () => {
      for (const close of closers) close();
      connections.stop();
      await router.close();
      await db.end();
      await stack.stop();
    },
  };
}

const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** The table of one phase: per call type, then CPU per request and share per process. */
export function printPhase(p: MeasuredPhase, title: string) {
  console.log(
    `\n${title}: asked ${p.rate} ops/s, achieved ${p.achieved.toFixed(1)} req/s (${p.requests} requests, ${p.operations} operations in ${p.seconds} s), errors ${p.errors}, load ${p.load}`,
  );
  console.log('  type          requests  errors   p50 ms   p95 ms   p99 ms  cached');
  for (const t of p.byType)
    console.log(
      `  ${t.type.padEnd(12)} ${String(t.requests).padStart(9)} ${String(t.errors).padStart(7)} ${ms(t.p50).padStart(8)} ${ms(t.p95).padStart(8)} ${ms(t.p99).padStart(8)} ${`${Math.round((100 * t.hits) / t.requests)}%`.padStart(7)}`,
    );
  const names = Object.keys(p.cpuPerRequest).sort();
  console.log(
    '  CPU per request (µs) / share of one core: ' +
      names
        .map((n) => `${n} ${p.cpuPerRequest[n]!.toFixed(0)}/${(p.cpuShare[n]! * 100).toFixed(0)}%`)
        .join(', '),
  );
  console.log(
    `  Postgres connections: active max ${p.connections.activeMax}, mean ${p.connections.activeMean.toFixed(1)}, total max ${p.connections.totalMax}`,
  );
  if (p.errorExamples.length) console.log(`  errors seen: ${p.errorExamples.join(' | ')}`);
}

/** The knee (highest rate with p95 ≤ 200 ms for every type and 0 errors), kept for the soak and faults runs. */
const KNEE_FILE = join(ROOT, '.data/stack/crowd-knee.json');
export function saveKnee(rate: number, achieved: number) {
  mkdirSync(join(ROOT, '.data/stack'), { recursive: true });
  writeFileSync(KNEE_FILE, JSON.stringify({ rate, achieved, at: new Date().toISOString() }));
}
/** Half the knee's operation rate: SOAK_RATE / FAULTS_RATE, else the last crowd run's, else 100. */
export function halfKnee(variable: string | undefined): number {
  if (variable) return Number(variable);
  if (existsSync(KNEE_FILE))
    return Math.max(
      10,
      Math.round((JSON.parse(readFileSync(KNEE_FILE, 'utf8')) as { rate: number }).rate / 2),
    );
  return 100;
}

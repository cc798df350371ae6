/**
 * `npm start` as a newcomer meets it (issue 28.3): the time from typing the
 * command to a portal that answers, cold (node_modules present, no DATA_DIR:
 * the embedded database is created and seeded) and warm (the second start).
 * Runs scripts/start.mjs itself (install check, build check, runner) with a
 * temporary DATA_DIR and free ports, so it never touches `.data`. Prints each
 * run's time to ready, the process's CPU time, the runner's phases over
 * 0.5 s (from its JSON log) and the machine's load average: compare the
 * figures of one run side by side, not across machines.
 *
 *   npm run bench -- start           (START_BENCH_WARM_RUNS=3 by default)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TARGET_MS = { cold: 30_000, warm: 5_000 };
const WARM_RUNS = Number(process.env.START_BENCH_WARM_RUNS ?? 3);
const CLOCK_TICK_MS = 10; // /proc/<pid>/stat counts CPU in USER_HZ ticks (100 per second on Linux)

interface LogLine {
  time: number;
  msg: string;
  service?: string;
}

interface StartRun {
  readyMs: number;
  cpuMs: number;
  phases: string[];
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** User + system CPU of a process and of its children it has waited for, from /proc (Linux). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // After the command: state is field 3, so utime..cstime (fields 14..17) are at 11..14 here.
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  return ticks * CLOCK_TICK_MS;
}

/** CPU of a process and of every descendant still running (scripts/start.mjs, then the runner). */
function treeCpuMs(pid: number): number {
  let children: number[] = [];
  try {
    const list = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    children = list ? list.split(' ').map(Number) : [];
  } catch {
    // gone meanwhile
  }
  return cpuMsOf(pid) + children.reduce((sum, child) => sum + treeCpuMs(child), 0);
}

/** Gaps over 0.5 s between log lines: what the time before each line went to. */
function phasesOf(lines: LogLine[], startedAt: number): string[] {
  const phases: string[] = [];
  let previous = startedAt;
  for (const line of lines) {
    const gap = line.time - previous;
    const what =
      phases.length || previous !== startedAt ? '' : ' (install and build checks, loading the code)';
    if (gap > 500) phases.push(`${(gap / 1000).toFixed(1)} s before "${line.msg.slice(0, 90)}"${what}`);
    previous = line.time;
  }
  return phases;
}

async function startOnce(dataDir: string): Promise<StartRun> {
  const port = await freePort();
  const startedAt = Date.now();
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: String(port),
      METRICS_PORT: '0',
      LOG_FORMAT: 'json',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  let output = '';
  try {
    const readyMs = await new Promise<number>((done, fail) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        let newline: number;
        while ((newline = output.indexOf('\n')) >= 0) {
          const text = output.slice(0, newline);
          output = output.slice(newline + 1);
          if (!text.startsWith('{')) continue;
          const line = JSON.parse(text) as LogLine;
          lines.push(line);
          if (line.msg.startsWith('Portal ready')) done(Date.now() - startedAt);
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
      child.on('exit', (code) => fail(new Error(`npm start exited (${code}) before it was ready`)));
    });
    // Ready means answering: one request through the gateway before the clock is read.
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    if (!health.ok) throw new Error(`/health answered ${health.status}`);
    const cpuMs = treeCpuMs(child.pid!);
    return { readyMs, cpuMs, phases: phasesOf(lines, startedAt) };
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGINT');
    await exited;
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function report(kind: 'cold' | 'warm', run: StartRun) {
  const verdict = run.readyMs <= TARGET_MS[kind] ? 'within' : 'OVER';
  console.log(
    `${kind}: ready in ${seconds(run.readyMs)} (${verdict} the ${seconds(TARGET_MS[kind])} target), ` +
      `CPU ${seconds(run.cpuMs)}`,
  );
  for (const phase of run.phases) console.log(`    ${phase}`);
}

it('npm start: cold and warm time to ready', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'start-bench-'));
  try {
    console.log(
      `load average at start: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    report('cold', await startOnce(dataDir));
    const warm: StartRun[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      const run = await startOnce(dataDir);
      warm.push(run);
      report('warm', run);
    }
    const median = [...warm].sort((a, b) => a.readyMs - b.readyMs)[Math.floor(warm.length / 2)]!;
    console.log(
      `warm median: ${seconds(median.readyMs)} (CPU ${seconds(median.cpuMs)}); ` +
        `load average at end: ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

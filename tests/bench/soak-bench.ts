/**
 * `npm run bench -- soak` (issue 31 §3): the crowd at half the knee (the last
 * crowd run's, or SOAK_RATE operations/s) for SOAK_SECONDS (600). Every 30 s:
 * errors and p95 of the slice, RSS and open file descriptors of every process
 * (and V8's heap after a full GC, after the warm-up and at the end),
 * Postgres connections, Redis memory and the jobs waiting in the queue. Then
 * whether each stayed flat after the warm-up (the first two slices): none may
 * grow more than 10% from the first slice after the warm-up to the last.
 */
import { test } from 'vitest';
import { halfKnee, startCrowdBench } from './crowd/crowd-setup';
import { heapAfterGc, jobStates, load, openFds, redisInfoField, rssBytes } from './crowd/process-meter';
import { heapProbeDir } from './crowd/stack';

const RATE = halfKnee(process.env.SOAK_RATE);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const SLICE = 30;
const WARM_UP_SLICES = 2;

interface Slice {
  at: number;
  requests: number;
  errors: number;
  p95: number;
  rss: Record<string, number>;
  /** V8 heap after a GC: taken after the warm-up and at the end only (a full GC disturbs the slice). */
  heap: Record<string, number | null>;
  fds: Record<string, number>;
  pgTotal: number;
  pgActive: number;
  redisBytes: number | null;
  waitingJobs: number;
}

test('soak: half the knee for ten minutes', async () => {
  console.log(`soak: ${RATE} operations/s for ${SECONDS} s, load average ${load()}`);
  const bench = await startCrowdBench();
  const since = new Date();
  const slices: Slice[] = [];
  const redisPort = Number(new URL(bench.stack.byName('redis').url).port);
  try {
    for (let at = 0; at < SECONDS; at += SLICE) {
      const p = await bench.phase(RATE, SLICE);
      const procs = bench.stack.processes.filter((x) => x.name !== 'redis');
      const index = at / SLICE;
      const heapToo = index === WARM_UP_SLICES || at + SLICE >= SECONDS;
      const heap: Slice['heap'] = {};
      for (const x of heapToo ? procs : [])
        heap[x.name] = await heapAfterGc(x.pid, heapProbeDir(bench.stack.options.logDir));
      const jobs = await jobStates(bench.db, since);
      slices.push({
        at: at + SLICE,
        requests: p.requests,
        errors: p.errors,
        p95: Math.max(...p.byType.map((t) => t.p95)),
        rss: Object.fromEntries(procs.map((x) => [x.name, rssBytes(x.pid)])),
        heap,
        fds: Object.fromEntries(procs.map((x) => [x.name, openFds(x.pid)])),
        pgTotal: p.connections.totalMax,
        pgActive: p.connections.activeMax,
        redisBytes: await redisInfoField(redisPort, 'used_memory'),
        waitingJobs: (jobs.states.created ?? 0) + (jobs.states.retry ?? 0) + (jobs.states.active ?? 0),
      });
      const s = slices.at(-1)!;
      console.log(
        `  ${String(s.at).padStart(4)} s  req ${s.requests}  errors ${s.errors}  worst p95 ${s.p95.toFixed(0)} ms  pg ${s.pgActive}/${s.pgTotal}  redis ${((s.redisBytes ?? 0) / 1048576).toFixed(1)} MB  jobs waiting ${s.waitingJobs}  load ${load()}`,
      );
      console.log(
        `        RSS MB: ${Object.entries(s.rss)
          .map(([name, bytes]) => `${name} ${(bytes / 1048576).toFixed(0)}`)
          .join(', ')}`,
      );
      if (p.errorExamples.length) console.log(`        errors seen: ${p.errorExamples.join(' | ')}`);
    }
  } finally {
    await bench.close();
  }
  const first = slices[Math.min(WARM_UP_SLICES, slices.length - 1)]!;
  const last = slices.at(-1)!;
  const drift = (a: number, b: number) => (a ? ((b - a) / a) * 100 : 0);
  // Growth is what leaks; a pool that shrinks after the warm-up's peak is not.
  console.log(`\nafter warm-up (${first.at} s) → end (${last.at} s): change (GREW when up more than 10%)`);
  const row = (name: string, a: number, b: number, unit = '') =>
    console.log(
      `  ${name.padEnd(22)} ${a.toFixed(0).padStart(10)}${unit} → ${b.toFixed(0).padStart(10)}${unit}  ${drift(a, b).toFixed(1).padStart(6)}%${drift(a, b) <= 10 ? '' : '  GREW'}`,
    );
  for (const name of Object.keys(last.rss)) {
    row(`${name} RSS`, (first.rss[name] ?? 0) / 1048576, last.rss[name]! / 1048576, ' MB');
    const heapBefore = first.heap[name];
    const heapAfter = last.heap[name];
    if (heapBefore && heapAfter)
      row(`${name} heap after GC`, heapBefore / 1048576, heapAfter / 1048576, ' MB');
    row(`${name} fds`, first.fds[name] ?? 0, last.fds[name]!);
  }
  row('Postgres connections', first.pgTotal, last.pgTotal);
  row('Redis memory', (first.redisBytes ?? 0) / 1048576, (last.redisBytes ?? 0) / 1048576, ' MB');
  console.log(
    `  errors in all: ${slices.reduce((s, x) => s + x.errors, 0)} of ${slices.reduce((s, x) => s + x.requests, 0)} requests; jobs waiting at the end: ${last.waitingJobs}; load average ${load()}`,
  );
});

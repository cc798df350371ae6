/**
 * `npm run bench -- crowd` (issue 31 §2): the production topology on this
 * machine (tests/bench/crowd/stack.ts, 1,000,000 cases) under an open-loop
 * crowd at rising arrival rates. Prints per rate: achieved requests/s,
 * p50/p95/p99 per call type, errors, CPU per request of every process
 * (driver included: it must not be the bottleneck), Postgres CPU and
 * connections; then the knee: the highest rate with p95 ≤ 200 ms for every
 * type and no error. CROWD_RATES (operations/s, comma-separated) and
 * CROWD_SECONDS change the steps; CROWD_MIX=signin runs one operation type
 * alone (sign-in p95 at 5 sign-ins/s: CROWD_MIX=signin CROWD_RATES=5).
 */
import { test } from 'vitest';
import { printPhase, saveKnee, startCrowdBench, type MeasuredPhase } from './crowd/crowd-setup';
import { load, QuerySampler } from './crowd/process-meter';

const RATES = (process.env.CROWD_RATES ?? '50,100,170,250,330,400,500,600').split(',').map(Number);
const SECONDS = Number(process.env.CROWD_SECONDS ?? 30);

const withinTarget = (p: MeasuredPhase) => p.errors === 0 && p.byType.every((t) => t.p95 <= 200);

test('crowd: rising arrival rates to the knee', async () => {
  console.log(`crowd bench: load average ${load()} at start`);
  const bench = await startCrowdBench();
  const phases: MeasuredPhase[] = [];
  try {
    // Warm-up: caches, connection pools, JIT; not reported.
    await bench.phase(RATES[0]!, 10);
    for (const rate of RATES) {
      // CROWD_PG_PROFILE=1: the statements Postgres spends its time on, per rate.
      const sampler = process.env.CROWD_PG_PROFILE
        ? new QuerySampler(bench.db, bench.stack.options.database)
        : null;
      const p = await bench.phase(rate, SECONDS);
      phases.push(p);
      printPhase(p, `rate ${rate}`);
      if (sampler)
        for (const q of sampler.take())
          console.log(`    pg ${q.busy.toFixed(2).padStart(5)} backends  ${q.query}`);
      // Far past the knee: more steps only queue.
      if (p.errors > p.requests * 0.05 || p.byType.some((t) => t.p95 > 5000)) break;
    }
  } finally {
    await bench.close();
  }
  console.log('\nsummary: ops/s asked, req/s achieved, errors, worst p95 (type), sign-ins/s and their p95');
  for (const p of phases) {
    const worst = p.byType.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    const signin = p.byType.find((t) => t.type === 'signin');
    console.log(
      `  ${String(p.rate).padStart(4)}  ${p.achieved.toFixed(1).padStart(7)}  ${String(p.errors).padStart(5)}  ${worst.p95.toFixed(0).padStart(6)} ms (${worst.type})  ${((signin?.requests ?? 0) / p.seconds).toFixed(1)}/s ${signin ? signin.p95.toFixed(0) : '-'} ms${withinTarget(p) ? '  within target' : ''}`,
    );
  }
  const knee = [...phases].reverse().find(withinTarget);
  if (knee) {
    saveKnee(knee.rate, knee.achieved);
    console.log(
      `knee: ${knee.rate} operations/s = ${knee.achieved.toFixed(1)} requests/s (target >= 400 requests/s)`,
    );
  } else console.log('knee: no rate met p95 <= 200 ms with 0 errors');
  console.log(`load average at the end: ${load()}`);
});

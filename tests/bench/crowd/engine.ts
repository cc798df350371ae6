/**
 * The open-loop crowd driver (issue 31 §2): operations arrive at a fixed
 * rate whatever the server does (a closed loop would slow down with it and
 * hide the queue), each picked by weight and run for a random simulated user
 * through a gateway. Every request is timed from the moment it was due, not
 * from when the driver got to it, so a stalled driver or server cannot hide
 * latency (coordinated omission). Results are kept per second as well, for
 * the fault runs.
 */
import { Pool } from 'undici';
import type { AcknowledgedWrite, CallType, HttpAnswer, HttpRequest, Operation, Send, SimUser } from './types';

/** What a load balancer in front of the gateways does: only ready ones get traffic. */
export class GatewayRouter {
  private readonly pools: Pool[];
  private readonly ready: boolean[];
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly urls: string[],
    private readonly readyPath: string,
  ) {
    this.pools = urls.map(
      (u) =>
        new Pool(u, {
          connections: 512,
          pipelining: 1,
          keepAliveTimeout: 30_000,
          connectTimeout: 2000,
          headersTimeout: 15_000,
          bodyTimeout: 15_000,
        }),
    );
    this.ready = urls.map(() => true);
    this.timer = setInterval(() => void this.poll(), 500);
  }

  private async poll() {
    await Promise.all(
      this.urls.map(async (u, i) => {
        try {
          const r = await fetch(u + this.readyPath, { signal: AbortSignal.timeout(1000) });
          await r.arrayBuffer();
          this.ready[i] = r.ok;
        } catch {
          this.ready[i] = false;
        }
      }),
    );
  }

  /** The user's own gateway while it is ready, else another ready one (or its own when none is). */
  pick(preferred: number): Pool {
    const n = this.pools.length;
    for (let k = 0; k < n; k++) {
      const i = (preferred + k) % n;
      if (this.ready[i]) return this.pools[i]!;
    }
    return this.pools[preferred % n]!;
  }

  async close() {
    clearInterval(this.timer);
    await Promise.all(this.pools.map((p) => p.destroy()));
  }
}

interface Sample {
  type: CallType;
  ms: number;
  ok: boolean;
  /** Answered from a gateway cache (x-cache: HIT). */
  hit: boolean;
  /** The second of the phase its operation was due in. */
  second: number;
}

export interface TypeFigures {
  type: CallType;
  requests: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  /** Answers the gateway served from its caches (lookups, profiles, stack config). */
  hits: number;
}

export interface SecondFigures {
  second: number;
  requests: number;
  errors: number;
  p95: number;
}

export interface PhaseResult {
  /** Operations per second asked for. */
  rate: number;
  seconds: number;
  operations: number;
  requests: number;
  /** Requests per second achieved. */
  achieved: number;
  errors: number;
  byType: TypeFigures[];
  perSecond: SecondFigures[];
  /** Up to 10 error texts seen (first of each kind). */
  errorExamples: string[];
  /** Operations still running when the phase ended (counted as errors when they fail later). */
  unfinished: number;
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;

const TYPES: CallType[] = [
  'signin',
  'refresh',
  'dashboard',
  'case-list',
  'case-detail',
  'write',
  'upload',
  'report',
];

/** Picks an operation by weight. */
function picker(operations: Operation[]) {
  const total = operations.reduce((s, o) => s + o.weight, 0);
  return () => {
    let x = Math.random() * total;
    for (const o of operations) if ((x -= o.weight) < 0) return o;
    return operations[operations.length - 1]!;
  };
}

export interface Crowd {
  users: SimUser[];
  operations: Operation[];
  router: GatewayRouter;
  /** Writes that answered 2xx (for the durability audit). */
  acknowledged: AcknowledgedWrite[];
  /** Whether a user may do an operation (read-only users write nothing). */
  canRun?: (op: Operation, user: SimUser) => boolean;
}

/** The simulated user's client address (10.0.0.0/8, one per user). */
const addressOf = (index: number) => `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;

/** One request of simulated user `index` through their gateway, as their browser and the load balancer send it. */
export async function sendAs(
  router: GatewayRouter,
  user: SimUser,
  index: number,
  request: HttpRequest,
): Promise<HttpAnswer> {
  const r = await router.pick(index).request({
    method: request.method,
    path: request.path,
    headers: {
      host: `${user.tenant}.localhost`,
      accept: 'application/json',
      // Each simulated person has an address of their own, as the load balancer reports it.
      'x-forwarded-for': addressOf(index),
      ...request.headers,
    },
    body: request.body,
  });
  return { status: r.statusCode, headers: r.headers, body: Buffer.from(await r.body.arrayBuffer()) };
}

/** A Send bound to one user's gateway that records each request into `samples`. */
function sender(
  crowd: Crowd,
  user: SimUser,
  index: number,
  samples: Sample[],
  errors: string[],
  dueAt: number,
  second: number,
) {
  let first = true;
  const send: Send = async (type: CallType, request: HttpRequest): Promise<HttpAnswer> => {
    // The first request of an operation is timed from when the operation was due.
    const started = first ? dueAt : performance.now();
    first = false;
    try {
      const answer = await sendAs(crowd.router, user, index, request);
      const ok = answer.status < 500;
      samples.push({
        type,
        ms: performance.now() - started,
        ok,
        hit: answer.headers['x-cache'] === 'HIT',
        second,
      });
      if (!ok && errors.length < 200)
        errors.push(`${type} ${request.method} ${request.path.split('?')[0]}: ${answer.status}`);
      return answer;
    } catch (error) {
      samples.push({ type, ms: performance.now() - started, ok: false, hit: false, second });
      const e = error as Error & { code?: string };
      if (errors.length < 200)
        errors.push(`${type} ${request.method} ${request.path.split('?')[0]}: ${e.code ?? e.message}`);
      throw error;
    }
  };
  return send;
}

/**
 * Runs operations at `rate` per second for `seconds`; answers the figures of
 * the requests that started in the phase (operations still running at the
 * end are awaited, up to 20 s).
 */
export async function runPhase(crowd: Crowd, rate: number, seconds: number): Promise<PhaseResult> {
  const pick = picker(crowd.operations);
  const samples: Sample[] = [];
  const opErrors: Array<{ type: CallType }> = [];
  const errorTexts: string[] = [];
  const running = new Set<Promise<void>>();
  const start = performance.now();
  let launched = 0;
  const total = Math.round(rate * seconds);

  const launch = (dueAt: number) => {
    const op = pick();
    let index = Math.floor(Math.random() * crowd.users.length);
    for (let tries = 0; tries < 10 && crowd.canRun && !crowd.canRun(op, crowd.users[index]!); tries++)
      index = Math.floor(Math.random() * crowd.users.length);
    const user = crowd.users[index]!;
    // Each sample's second: when its operation was due (operations run concurrently, so it is set per sample).
    const send = sender(crowd, user, index, samples, errorTexts, dueAt, Math.floor((dueAt - start) / 1000));
    const task = op
      .run(user, send, (w) => crowd.acknowledged.push(w))
      .then(
        (problem) => {
          if (problem) {
            opErrors.push({ type: op.type });
            if (errorTexts.length < 200) errorTexts.push(`${op.type}: ${problem}`);
          }
        },
        () => {
          // A transport failure: already counted by the request's sample.
        },
      )
      .finally(() => running.delete(task));
    running.add(task);
  };

  // Arrivals at a fixed rate, evenly spaced; a tick that comes late launches what fell due meanwhile.
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - start) / 1000) * rate));
      while (launched < due) {
        launch(start + (launched * 1000) / rate);
        launched++;
      }
      if (launched >= total) return done();
      setTimeout(tick, 5);
    };
    tick();
  });
  const elapsed = (performance.now() - start) / 1000;
  await Promise.race([Promise.allSettled([...running]), new Promise((r) => setTimeout(r, 20_000))]);
  const unfinished = running.size;

  const byType: TypeFigures[] = [];
  for (const type of TYPES) {
    const of = samples.filter((s) => s.type === type);
    if (!of.length) continue;
    const sorted = of.map((s) => s.ms).sort((a, b) => a - b);
    byType.push({
      type,
      requests: of.length,
      errors: of.filter((s) => !s.ok).length + opErrors.filter((e) => e.type === type).length,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      hits: of.filter((s) => s.hit).length,
    });
  }
  const perSecond: SecondFigures[] = [];
  for (let s = 0; s < Math.ceil(seconds); s++) {
    const of = samples.filter((x) => x.second === s);
    perSecond.push({
      second: s,
      requests: of.length,
      errors: of.filter((x) => !x.ok).length,
      p95: percentile(
        of.map((x) => x.ms).sort((a, b) => a - b),
        95,
      ),
    });
  }
  const distinct = [...new Set(errorTexts)].slice(0, 10);
  return {
    rate,
    seconds,
    operations: launched,
    requests: samples.length,
    achieved: samples.length / Math.max(elapsed, 1e-9),
    errors: samples.filter((s) => !s.ok).length + opErrors.length + unfinished,
    byType,
    perSecond,
    errorExamples: distinct,
    unfinished,
  };
}

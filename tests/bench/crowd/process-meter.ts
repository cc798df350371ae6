/**
 * What each process of the stack spends: CPU (from /proc, every thread), RSS
 * and open file descriptors; Postgres as the sum of its server processes;
 * Postgres connections and Redis memory from the servers themselves.
 */
import { readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection } from 'node:net';
import { loadavg } from 'node:os';
import type pg from 'pg';
import { cpuMicros } from '../wrk';

/**
 * The Postgres processes that work for the database: its backends and the
 * server's background processes (WAL writer, checkpointer, autovacuum), not
 * the backends of other databases on a shared server.
 */
export async function postgresPids(db: pg.Pool, database: string): Promise<number[]> {
  try {
    const r = await db.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = $1 or datname is null`,
      [database],
    );
    return r.rows.map((row) => row.pid);
  } catch {
    return [];
  }
}

export function rssBytes(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** V8's heap of a stack process after a full GC (it answers SIGWINCH through heap-probe.mjs), or null. */
export async function heapAfterGc(pid: number, probeDir: string): Promise<number | null> {
  const file = join(probeDir, `${pid}.json`);
  rmSync(file, { force: true });
  try {
    process.kill(pid, 'SIGWINCH');
  } catch {
    return null;
  }
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as { heapUsed: number }).heapUsed;
    } catch {
      // not written yet
    }
  }
  return null;
}

export function openFds(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
      try {
        readlinkSync(`/proc/${pid}/fd/${fd}`);
        return true;
      } catch {
        return false;
      }
    }).length;
  } catch {
    return 0;
  }
}

export const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export interface Named {
  name: string;
  pid: number;
}

/** CPU of named processes between two points (a restarted process starts from 0: read per pid). */
export class CpuMeter {
  private readonly start = new Map<string, { pid: number; us: number }>();
  private readonly pgStart = new Map<number, number>();
  private selfStart = process.cpuUsage();

  constructor(
    private readonly procs: () => Named[],
    private readonly pgPids: () => Promise<number[]>,
  ) {}

  async reset() {
    this.start.clear();
    for (const p of this.procs()) this.start.set(p.name, { pid: p.pid, us: cpuMicros(p.pid) });
    this.pgStart.clear();
    for (const pid of await this.pgPids()) this.pgStart.set(pid, cpuMicros(pid));
    this.selfStart = process.cpuUsage();
  }

  /** µs of CPU per process since reset (the driver as 'driver', Postgres as 'postgres'). */
  async read(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const p of this.procs()) {
      const s = this.start.get(p.name);
      out[p.name] = cpuMicros(p.pid) - (s && s.pid === p.pid ? s.us : 0);
    }
    // A backend that came during the phase counts from its start; one that left is missed (pools keep theirs).
    let pgUs = 0;
    for (const pid of await this.pgPids()) pgUs += cpuMicros(pid) - (this.pgStart.get(pid) ?? 0);
    out.postgres = pgUs;
    const self = process.cpuUsage(this.selfStart);
    out.driver = self.user + self.system;
    return out;
  }
}

/** Samples Postgres connections of the database once a second: max and mean of active and total. */
export class ConnectionSampler {
  private readonly timer: NodeJS.Timeout;
  private samples: Array<{ active: number; total: number }> = [];

  constructor(
    private readonly client: pg.Pool,
    private readonly database: string,
  ) {
    this.timer = setInterval(() => void this.sample(), 1000);
  }

  private async sample() {
    try {
      const r = await this.client.query<{ active: string; total: string }>(
        `select count(*) filter (where state = 'active') as active, count(*) as total
           from pg_stat_activity where datname = $1`,
        [this.database],
      );
      this.samples.push({ active: Number(r.rows[0]!.active), total: Number(r.rows[0]!.total) });
    } catch {
      // Postgres restarting (the fault run): no sample.
    }
  }

  /** Figures since the last take, then starts again. */
  take() {
    const s = this.samples;
    this.samples = [];
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    return {
      activeMax: Math.max(0, ...s.map((x) => x.active)),
      activeMean: mean(s.map((x) => x.active)),
      totalMax: Math.max(0, ...s.map((x) => x.total)),
    };
  }

  stop() {
    clearInterval(this.timer);
  }
}

/** One field of Redis INFO (e.g. used_memory), over a plain connection; null when Redis does not answer. */
export function redisInfoField(port: number, field: string): Promise<number | null> {
  return new Promise((done) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => s.write('INFO memory\r\n'));
    let text = '';
    s.setTimeout(1000, () => {
      s.destroy();
      done(null);
    });
    s.on('data', (d) => {
      text += d.toString();
      const m = new RegExp(`${field}:(\\d+)`).exec(text);
      if (m) {
        s.destroy();
        done(Number(m[1]));
      }
    });
    s.once('error', () => done(null));
  });
}

/** Jobs of the queue (pg-boss) by state, created since `since`; `waiting` excludes ones scheduled for later. */
export async function jobStates(db: pg.Pool, since: Date) {
  const r = await db.query<{ state: string; n: string; retried: string }>(
    `select state, count(*) as n, count(*) filter (where retry_count > 0) as retried
       from pgboss.job where created_on >= $1 and (state <> 'created' or start_after <= now())
      group by state`,
    [since],
  );
  const out: Record<string, number> = {};
  let retried = 0;
  for (const row of r.rows) {
    out[row.state] = Number(row.n);
    retried += Number(row.retried);
  }
  return { states: out, retried };
}

/**
 * Postgres's busiest statements, sampled: every 20 ms, the statements active
 * in the database; a statement's share of samples is its share of the time
 * the server spent on the database's queries (a profiler without extensions).
 */
export class QuerySampler {
  private readonly counts = new Map<string, number>();
  private samples = 0;
  private busy = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: pg.Pool,
    private readonly database: string,
  ) {
    this.timer = setInterval(() => void this.sample(), 20);
  }

  private async sample() {
    if (this.busy) return;
    this.busy = true;
    try {
      const r = await this.db.query<{ q: string }>(
        `select left(regexp_replace(query, '\\s+', ' ', 'g'), 140) as q from pg_stat_activity
          where datname = $1 and state = 'active' and pid <> pg_backend_pid()`,
        [this.database],
      );
      this.samples++;
      for (const { q } of r.rows) this.counts.set(q, (this.counts.get(q) ?? 0) + 1);
    } catch {
      // restarting
    } finally {
      this.busy = false;
    }
  }

  /** The top statements by mean number of backends running them, then starts again. */
  take(top = 12): Array<{ query: string; busy: number }> {
    clearInterval(this.timer);
    const out = [...this.counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([query, n]) => ({ query, busy: n / Math.max(this.samples, 1) }));
    return out;
  }
}

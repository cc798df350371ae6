/**
 * wrk (Debian package) as the load generator of the gateway benchmark, in its
 * own process: autocannon in the test runner's process saturated before the
 * servers did (PITFALLS "Learned in this project"). CPU time of the servers
 * under test is read from /proc/<pid>/stat (user + system of every thread),
 * so every configuration (nginx included) gets a CPU cost per request.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A Debian package's binary; installed with apt-get when missing (as root, or via sudo -n). */
export function ensureDebianTool(pkg: string, candidates: string[]): string {
  const found = candidates.find((p) => existsSync(p));
  if (found) return found;
  const asRoot = process.getuid?.() === 0;
  const cmd = asRoot ? ['apt-get'] : ['sudo', '-n', 'apt-get'];
  console.log(`(${pkg} missing: ${cmd.join(' ')} install -y ${pkg})`);
  const install = () =>
    spawnSync(cmd[0]!, [...cmd.slice(1), 'install', '-y', '--no-install-recommends', pkg], {
      stdio: 'inherit',
    });
  if (install().status !== 0) {
    spawnSync(cmd[0]!, [...cmd.slice(1), 'update'], { stdio: 'inherit' });
    install();
  }
  const after = candidates.find((p) => existsSync(p));
  if (!after) throw new Error(`${pkg} is needed: apt-get install -y ${pkg} (as root)`);
  return after;
}

export const ensureWrk = () => ensureDebianTool('wrk', ['/usr/bin/wrk', '/usr/local/bin/wrk']);

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim() || 100);

/** utime + stime (µs) of one process, all its threads; 0 when it is gone. */
function cpuOfPid(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(rest[11]) + Number(rest[12])) / TICKS_PER_SECOND) * 1e6;
  } catch {
    return 0;
  }
}

/** The children of a process (nginx's workers). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {
      // gone
    }
  }
  return out;
}

/** CPU time (µs) of a process and its direct children (nginx master + workers). */
export function cpuMicros(pid: number | undefined, withChildren = false): number {
  if (!pid) return 0;
  let total = cpuOfPid(pid);
  if (withChildren) for (const c of childrenOf(pid)) total += cpuOfPid(c);
  return total;
}

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors plus non-2xx/3xx answers. */
  errors: number;
}

/**
 * Lua: fixed headers, optionally a path per request (unique lookups: each one a
 * cache miss), and a machine-readable summary line at the end.
 */
const SCRIPT = `
local unique = false
local n = 0
local offset = 0
local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end
function init(args)
  if args[1] == "unique" then
    unique = true
    offset = tonumber(args[2]) + (tid or 0) * 100000
  elseif args[1] == "paced" then
    -- Each connection waits about this long before its next request (uniform 0.5x-1.5x so the
    -- connections do not fire in step): a fixed offered rate, and latency measured without queueing.
    local interval = tonumber(args[2])
    delay = function() return math.floor(interval * (0.5 + math.random())) end
  end
end
function request()
  if not unique then return wrk.request() end
  local i = offset + n
  n = n + 1
  local path = "/api/cm/gen/countries?start=" .. (i % 200) .. "&limit=" .. (999 - math.floor(i / 200))
  return wrk.format("GET", path)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRKJSON {\\"requests\\":%d,\\"duration_us\\":%d,\\"errors\\":%d,\\"p50_us\\":%d,\\"p99_us\\":%d}\\n",
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;

let scriptFile: string | undefined;

export async function wrk(
  bin: string,
  url: string,
  options: {
    connections: number;
    seconds: number;
    threads?: number;
    headers?: Record<string, string>;
    /** Each request a lookup path never asked before, numbered from this offset. */
    uniqueFrom?: number;
    /** Offer this many requests per second in all (each connection paced), instead of as many as possible. */
    pacedRps?: number;
  },
): Promise<WrkResult> {
  if (!scriptFile) {
    scriptFile = join(tmpdir(), `gw-bench-wrk-${process.pid}.lua`);
    writeFileSync(scriptFile, SCRIPT);
  }
  const args = [
    '-t',
    String(options.threads ?? 1),
    '-c',
    String(options.connections),
    '-d',
    `${options.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    scriptFile,
  ];
  // wrk replaces its own Host header only when given as 'Host': a 'host' would be a second one, which the
  // gateway refuses (400, request smuggling), and every request would count as an error.
  for (const [k, v] of Object.entries(options.headers ?? {}))
    args.push('-H', `${k.toLowerCase() === 'host' ? 'Host' : k}: ${v}`);
  args.push(url);
  if (options.uniqueFrom !== undefined) args.push('--', 'unique', String(options.uniqueFrom));
  else if (options.pacedRps)
    args.push('--', 'paced', String((1000 * options.connections) / options.pacedRps));
  const out = await new Promise<string>((resolve, reject) => {
    const p = spawn(bin, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    p.stdout.on('data', (d: Buffer) => (text += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
  });
  const line = /WRKJSON (\{.*\})/.exec(out);
  if (!line) throw new Error(`no wrk summary in: ${out}`);
  const j = JSON.parse(line[1]!) as {
    requests: number;
    duration_us: number;
    errors: number;
    p50_us: number;
    p99_us: number;
  };
  const seconds = j.duration_us / 1e6;
  return {
    requests: j.requests,
    seconds,
    rps: j.requests / seconds,
    p50Ms: j.p50_us / 1000,
    p99Ms: j.p99_us / 1000,
    errors: j.errors,
  };
}

#!/usr/bin/env node
// Top self-time functions of a V8 CPU profile (node --cpu-prof, BENCH_CPU_PROF):
//   node tests/bench/cpu-profile-top.mjs <file.cpuprofile> [rows=40] [requests served]
// (PROFILE_SKIP_SECONDS=n leaves out the first n seconds: start-up and warm-up.)
// Self time per function (name, file:line), and per file/package, as % of the non-idle samples;
// then inclusive (self + synchronous callees) time of the functions whose file matches
// PROFILE_INCLUDE (a regex, default the gateway's and the workspace packages' sources).
import { readFileSync } from 'node:fs';

const [file, rowsArg, requestsArg] = process.argv.slice(2);
const requests = Number(requestsArg ?? 0);
const rows = Number(rowsArg ?? 40);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const skip = Number(process.env.PROFILE_SKIP_SECONDS ?? 0) * 1e6;
const dt = new Map();
let at = 0;
for (let i = 0; i < prof.samples.length; i++) {
  const id = prof.samples[i];
  at += prof.timeDeltas[i] ?? 0;
  if (at < skip) continue;
  dt.set(id, (dt.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0));
}
const self = new Map();
const perFile = new Map();
let total = 0;
let idle = 0;
for (const [id, t] of dt) {
  const n = byId.get(id);
  const cf = n.callFrame;
  if (cf.functionName === '(idle)') {
    idle += t;
    continue;
  }
  total += t;
  const short = cf.url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(/^.*\/work\/main\//, '');
  const key = `${cf.functionName || '(anonymous)'}  ${short}:${cf.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + t);
  const pkg =
    short.startsWith('node:') || !short
      ? short || cf.functionName
      : short
          .split('/')
          .slice(0, short.startsWith('@') ? 2 : 1)
          .join('/');
  perFile.set(pkg, (perFile.get(pkg) ?? 0) + t);
}
// With the number of requests served: µs per request beside the share.
const pct = (t) =>
  `${((t / total) * 100).toFixed(1).padStart(5)}%${requests ? ` ${(t / requests).toFixed(2).padStart(7)} µs/req` : ''}`;
console.log(
  `busy ${(total / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s` +
    (requests
      ? `, ${(total / requests).toFixed(1)} µs/req over ${requests} requests (start-up included)`
      : '') +
    '\n\nself time by function:',
);
for (const [k, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`${pct(t)}  ${k}`);
console.log('\nself time by package / file group:');
for (const [k, t] of [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${pct(t)}  ${k}`);

// Inclusive time: a node's self time counts for every distinct function on its stack (no double counting).
const include = new RegExp(process.env.PROFILE_INCLUDE ?? '/work/main/(gateway|packages)/');
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
for (const [id, t] of dt) {
  if (byId.get(id).callFrame.functionName === '(idle)') continue;
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const cf = byId.get(cur).callFrame;
    if (!include.test(cf.url)) continue;
    const key = `${cf.functionName || '(anonymous)'}  ${cf.url.replace(/^.*\/work\/main\//, '')}:${cf.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    incl.set(key, (incl.get(key) ?? 0) + t);
  }
}
console.log(`\ninclusive time of functions matching ${include}:`);
for (const [k, t] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`${pct(t)}  ${k}`);

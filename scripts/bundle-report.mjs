// Prints the web bundle: each JS/CSS chunk with raw and gzip size, and the initial JS loaded by index.html.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from './lib.mjs';

const dist = join(ROOT, 'web', 'dist');
const assets = join(dist, 'assets');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = new Set([...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]));
const rows = readdirSync(assets)
  .filter((f) => /\.(js|css)$/.test(f))
  .map((f) => {
    const buf = readFileSync(join(assets, f));
    return { file: f, raw: buf.length, gzip: gzipSync(buf).length, initial: initial.has(f) };
  })
  .sort((a, b) => b.gzip - a.gzip);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const initialJs = rows.filter((r) => r.initial && r.file.endsWith('.js')).reduce((s, r) => s + r.gzip, 0);
console.log('web bundle (gzip):');
for (const r of rows)
  console.log(
    `  ${r.initial ? '*' : ' '} ${r.file.padEnd(48)} ${kb(r.raw).padStart(10)} ${kb(r.gzip).padStart(10)}`,
  );
console.log(`  initial JS (gzip): ${kb(initialJs)}   (* = loaded by index.html)`);
writeFileSync(
  join(dist, 'bundle-report.json'),
  JSON.stringify({ initialJsGzip: initialJs, chunks: rows }, null, 2),
);

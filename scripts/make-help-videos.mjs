// Generates the demo tenant's help topic videos (issue 19): short WebM clips recorded in Debian's Chromium
// from a canvas (no ffmpeg on the build machines), a few KB each so the repository carries no large blobs.
// Usage: node scripts/make-help-videos.mjs [tenant=acme]. Real tenants name their own files or URLs.
/* global document, MediaRecorder, requestAnimationFrame -- the recording runs in the page (page.evaluate) */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// playwright-core is a dependency of the tests package (the browser tests drive the same Chromium).
const { chromium } = createRequire(join(process.cwd(), 'tests', 'package.json'))('playwright-core');

const tenant = process.argv[2] ?? 'acme';
const TOPICS = [
  ['chargebacks', 'Chargebacks'],
  ['alerts', 'Alerts'],
  ['case-management', 'Case Management'],
  ['user-management', 'User Management'],
  ['profile-settings', 'Profile Settings'],
  ['erts', 'ERTs'],
  ['review-and-response', 'Review and Response Features'],
];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  headless: true,
});
try {
  const page = await browser.newPage();
  for (const [file, title] of TOPICS) {
    const b64 = await page.evaluate(async (title) => {
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 180;
      const g = canvas.getContext('2d');
      const stream = canvas.captureStream(15);
      const rec = new MediaRecorder(stream, {
        mimeType: 'video/webm;codecs=vp8',
        videoBitsPerSecond: 60_000,
      });
      const chunks = [];
      rec.ondataavailable = (e) => chunks.push(e.data);
      const done = new Promise((r) => (rec.onstop = r));
      rec.start();
      const start = performance.now();
      await new Promise((resolve) => {
        const draw = () => {
          const t = (performance.now() - start) / 1000;
          g.fillStyle = '#1e3a8a';
          g.fillRect(0, 0, 320, 180);
          g.fillStyle = '#60a5fa';
          g.fillRect(0, 170, Math.min(1, t / 3) * 320, 10);
          g.fillStyle = '#ffffff';
          g.font = 'bold 20px sans-serif';
          g.textAlign = 'center';
          g.fillText(title, 160, 85);
          g.font = '13px sans-serif';
          g.fillText('Help video (demo)', 160, 112);
          if (t < 3) requestAnimationFrame(draw);
          else resolve();
        };
        draw();
      });
      rec.stop();
      await done;
      const buf = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
      let s = '';
      for (const byte of buf) s += String.fromCharCode(byte);
      return btoa(s);
    }, title);
    const out = join('config', 'tenants', 'assets', tenant, `help-${file}.webm`);
    writeFileSync(out, Buffer.from(b64, 'base64'));
    console.log(`${out}: ${Buffer.byteLength(b64, 'base64')} bytes`);
  }
} finally {
  await browser.close();
}

/**
 * Issue 31.4: a gateway on SIGTERM drains. The real shutdown helper (core drainThenClose, what
 * closeOnSignals runs) on the real gateway listening on a port, with DRAIN_SECONDS=1: readiness turns
 * 503 at once while calls on kept-alive and new connections still answer 200; a slow call in flight
 * completes; live streams get their `end` event; then the port is closed. No call fails.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_READY_PATH } from '@portal/contracts';
import { drainThenClose, listen } from '@portal/core';
import { useGatewayHarness } from '../../support/gateway-harness';
import { profile } from './fakes';

const USER = 1000006;
const h = useGatewayHarness({ profiles: { [`acme:${USER}`]: profile(USER) } });
let port = 0;

beforeAll(async () => {
  const url = await listen(h.gateway, 0, '127.0.0.1');
  port = Number(new URL(url).port);
  h.cases.delayMs = 1500;
});

interface Answer {
  status: number;
  body: string;
  /** The request went on a connection kept alive from an earlier one. */
  reused: boolean;
}

function get(path: string, headers: IncomingHttpHeaders, agent: Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** An SSE stream of /api/live: its text so far, and a promise of its end. */
function openLive(headers: IncomingHttpHeaders) {
  return new Promise<{ text: () => string; ended: Promise<void> }>((resolve, reject) => {
    let text = '';
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/live', headers }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`live answered ${res.statusCode}`));
      res.setEncoding('utf8');
      const ended = new Promise<void>((done) => res.on('end', done));
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('event: ready')) resolve({ text: () => text, ended });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const refused = () =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('gateway drain on SIGTERM (issue 31.4)', () => {
  it('turns not ready at once, keeps serving for DRAIN_SECONDS, finishes what is in flight, then closes', async () => {
    const auth = h.auth(USER);
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await get(GATEWAY_READY_PATH, {})).status).toBe(200);
      expect((await get('/api/cm/cases', auth, keepAlive)).status).toBe(200);

      const live = await openLive(auth);
      const slow = get('/api/cm/cases/slow', auth);
      await expect
        .poll(() => h.cases.calls.get('/cm/cases/slow') ?? 0, { timeout: 5000, interval: 20 })
        .toBe(1);

      const drainStarted = Date.now();
      const closing = drainThenClose(h.t.deps.log, [() => h.gateway.close()], {
        drains: [h.gateway.drain],
        drainSeconds: 1,
      });

      // At once: not ready, naming why.
      const ready = await get(GATEWAY_READY_PATH, {});
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.body)).toMatchObject({ status: 'down', draining: true, down: ['draining'] });

      // Still serving normally throughout the drain, on the kept-alive connection and on new ones.
      const during: Answer[] = [];
      while (Date.now() - drainStarted < 800) {
        during.push(await get('/api/cm/cases', auth, keepAlive), await get('/api/cm/cases', auth));
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(during.length).toBeGreaterThan(4);
      expect(during.filter((a) => a.status !== 200)).toEqual([]);
      expect(during.some((a) => a.reused)).toBe(true);
      expect(await refused()).toBe(false);

      await closing;
      // Closing began after the drain and waited for the slow call, which started before it.
      expect(Date.now() - drainStarted).toBeGreaterThanOrEqual(1000);
      expect((await slow).status).toBe(200);
      // The live stream was told why it ends (the browser reconnects elsewhere).
      await live.ended;
      expect(live.text()).toMatch(/event: end\ndata: \{"reason":"shutdown"\}/);
      expect(await refused()).toBe(true);
    } finally {
      keepAlive.destroy();
    }
  });
});

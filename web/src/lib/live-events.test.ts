import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveConnection, matches, parseSse, type LiveDelivery } from './live-events';
import { setAccessToken } from './token-store';

const job = {
  kind: 'job',
  id: 'j1',
  job_kind: 'case.updater',
  state: 'running',
  progress: 5,
  message: null,
  created_by: 1,
} as const;
const event = { kind: 'event', type: 'CASE_STATUS_CHANGED', merchant_id: 3, case_id: 9 } as const;

/** A streamed body that the test writes to. */
function streamed() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  const enc = new TextEncoder();
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    write: (text: string) => controller.enqueue(enc.encode(text)),
    close: () => controller.close(),
  };
}

const ready = 'retry: 2000\nevent: ready\ndata: {"heartbeat_seconds":15}\n\n';

afterEach(() => setAccessToken(null));

describe('live events', () => {
  it('parses Server-Sent Events across chunk borders and skips comments', () => {
    const seen: Array<{ event: string; data: string }> = [];
    let rest = parseSse(': ping\n\nevent: ready\ndata: {"a":', (e) => seen.push(e));
    rest = parseSse(`${rest}1}\n\ndata: {"b":2}\r\n\r\n`, (e) => seen.push(e));
    expect(rest).toBe('');
    expect(seen).toEqual([
      { event: 'ready', data: '{"a":1}' },
      { event: 'message', data: '{"b":2}' },
    ]);
  });

  it('matches filters by kind and fields; a resync passes every filter', () => {
    expect(matches({ kind: 'job', job_kind: 'case.updater' }, job)).toBe(true);
    expect(matches({ kind: 'job', job_kind: ['case.bulk-close'] }, job)).toBe(false);
    expect(matches({ kind: 'event', type: ['CASE_STATUS_CHANGED'], case_id: 9 }, event)).toBe(true);
    expect(matches({ kind: 'event', case_id: 10 }, event)).toBe(false);
    expect(matches({ kind: 'job' }, event)).toBe(false);
    expect(matches((m) => m.kind === 'event', event)).toBe(true);
    expect(matches({ kind: 'job', id: 'x' }, { kind: 'resync' })).toBe(true);
  });

  it('opens with the bearer token, delivers messages, refreshes on 401 and resyncs after a drop', async () => {
    setAccessToken('old', 900);
    const streams = [streamed(), streamed()];
    const calls: Array<Record<string, string>> = [];
    const fetchImpl = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      const headers = init!.headers as Record<string, string>;
      calls.push(headers);
      if (headers.authorization === 'Bearer old') return new Response('{}', { status: 401 });
      return streams.shift()!.response;
    });
    const refresh = vi.fn(async () => {
      setAccessToken('new', 900);
      return true;
    });
    const first = streams[0]!;
    const second = streams[1]!;
    const conn = new LiveConnection(fetchImpl as typeof fetch, refresh);
    const got: LiveDelivery[] = [];
    conn.subscribe((m) => got.push(m));
    conn.start();
    await vi.waitFor(() => expect(calls.length).toBe(2));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(calls[1]!.authorization).toBe('Bearer new');
    expect(conn.getStatus()).toBe('connecting');
    first.write(ready);
    await vi.waitFor(() => expect(conn.getStatus()).toBe('open'));
    first.write(`data: ${JSON.stringify(job)}\n\n: ping\n\n`);
    await vi.waitFor(() => expect(got).toEqual([job]));
    // The server ends the stream (token expired): reconnect at once, then a resync.
    first.write('event: end\ndata: {"reason":"expired"}\n\n');
    first.close();
    await vi.waitFor(() => expect(calls.length).toBe(3));
    second.write(ready);
    await vi.waitFor(() => expect(got).toEqual([job, { kind: 'resync' }]));
    conn.stop();
    expect(conn.getStatus()).toBe('down');
  });

  it('is down (so screens poll) while the gateway refuses the stream', async () => {
    setAccessToken('t', 900);
    const fetchImpl = vi.fn(async () => new Response('{"message":"x"}', { status: 429 }));
    const conn = new LiveConnection(fetchImpl as unknown as typeof fetch, async () => false);
    conn.start();
    await vi.waitFor(() => expect(conn.getStatus()).toBe('down'));
    conn.stop();
  });
});

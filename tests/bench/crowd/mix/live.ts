import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { LIVE_PATH } from '@portal/contracts';
import type { SimUser } from '../types';
import { forgetCase, stateOf } from './state';

/**
 * The live-update stream a signed-in browser tab holds (GET /api/live,
 * Server-Sent Events, gateway/src/live/live-routes.ts), as web/src/lib/
 * live-events.ts keeps it: reconnect at once after the server's `end`
 * (token expired, scope changed), after a 401 with the user's next token,
 * otherwise with backoff (1 s doubling to 30 s, jittered); a stream silent
 * for 45 s (the server pings every 15 s) is dropped and reopened. At most
 * LIVE_MAX_CONNECTIONS_PER_USER (5) streams per account: a sixth is refused
 * with 429 and retried with backoff. Counters go to user.memory.mix.live.
 * A case's status change (CASE_STATUS_CHANGED) makes the user's memory
 * forget that case, as the browser's lists refetch on it: later operations
 * then do not pick a case someone else has just moved on.
 */

const BACKOFF_MIN_MS = 1000;
const BACKOFF_MAX_MS = 30_000;
const SILENCE_MS = 45_000;
const TOKEN_WAIT_MS = 500;

type Outcome = 'ended' | 'unauthorized' | 'refused' | 'failed' | 'closed';

export async function openLiveStream(user: SimUser, gatewayUrl: string): Promise<() => void> {
  const state = stateOf(user);
  const stats = state.live;

  const forgetChangedCase = (block: string) => {
    try {
      const message = JSON.parse(block.replace(/^data: /gm, '')) as { type?: string; case_id?: unknown };
      if (message.type === 'CASE_STATUS_CHANGED' && typeof message.case_id === 'number')
        forgetCase(state, message.case_id);
    } catch {
      // Not a message of ours: ignored, as the browser does.
    }
  };
  const base = new URL(gatewayUrl);
  const request = base.protocol === 'https:' ? httpsRequest : httpRequest;
  let running = true;
  let current: ClientRequest | undefined;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** One stream from request to end. */
  const connectOnce = (token: string) =>
    new Promise<Outcome>((resolve) => {
      let ended = false;
      let silence: NodeJS.Timeout | undefined;
      const alive = () => {
        clearTimeout(silence);
        silence = setTimeout(() => req.destroy(new Error('silent stream')), SILENCE_MS);
      };
      const finish = (outcome: Outcome) => {
        clearTimeout(silence);
        resolve(outcome);
      };
      stats.connects++;
      const req = request(
        {
          host: base.hostname,
          port: base.port,
          path: LIVE_PATH,
          method: 'GET',
          headers: {
            host: `${user.tenant}.localhost`,
            accept: 'text/event-stream',
            authorization: `Bearer ${token}`,
          },
        },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            const status = res.statusCode ?? 0;
            return finish(
              status === 401 ? 'unauthorized' : status >= 400 && status < 500 ? 'refused' : 'failed',
            );
          }
          res.setEncoding('utf8');
          let buffer = '';
          res.on('data', (chunk: string) => {
            alive();
            buffer += chunk;
            let at: number;
            while ((at = buffer.indexOf('\n\n')) !== -1) {
              const block = buffer.slice(0, at);
              buffer = buffer.slice(at + 2);
              const event = /^event: (.*)$/m.exec(block)?.[1];
              if (event === 'ready') stats.ready++;
              else if (event === 'end') {
                ended = true;
                stats.ends++;
              } else if (!event && /^data: /m.test(block)) {
                stats.messages++;
                forgetChangedCase(block);
              }
            }
          });
          res.on('end', () => finish(ended ? 'ended' : running ? 'failed' : 'closed'));
          res.on('error', () => finish(running ? 'failed' : 'closed'));
        },
      );
      current = req;
      req.on('error', () => finish(running ? 'failed' : 'closed'));
      alive();
      req.end();
    });

  const loop = async () => {
    let attempt = 0;
    while (running) {
      const token = user.token;
      if (!token) {
        await sleep(TOKEN_WAIT_MS);
        continue;
      }
      const readyBefore = stats.ready;
      const outcome = await connectOnce(token);
      if (!running) return;
      // A stream that was open starts the backoff again, as the browser's does.
      if (stats.ready > readyBefore) attempt = 0;
      if (outcome === 'ended') {
        attempt = 0;
        continue;
      }
      if (outcome === 'unauthorized') {
        // The token expired: the operations sign the user in again; reconnect with the next token.
        stats.refusals++;
        while (running && user.token === token) await sleep(TOKEN_WAIT_MS);
        continue;
      }
      if (outcome === 'refused') stats.refusals++;
      else stats.failures++;
      const wait = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** attempt);
      attempt++;
      await sleep(wait / 2 + Math.random() * (wait / 2));
    }
  };
  void loop();
  return () => {
    running = false;
    current?.destroy();
    wake?.();
  };
}

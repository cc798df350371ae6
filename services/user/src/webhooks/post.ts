import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './ssrf';

/** Limits of one delivery attempt: a slow or chatty receiver cannot hold a worker. */
const DELIVERY_TIMEOUT_MS = 10_000;
export const RESPONSE_BYTES = 4096;

interface PostResult {
  status: number | null;
  /** The first RESPONSE_BYTES of the answer, or the network error. */
  body: string;
  error: string | null;
}

/**
 * POSTs to the checked address (never a fresh lookup: DNS rebinding), TLS
 * still verified against the URL's host name. Redirects are answers like any
 * other (not followed); the body is read up to RESPONSE_BYTES, all within
 * DELIVERY_TIMEOUT_MS.
 */
export function postToTarget(
  target: CheckedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<PostResult> {
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const { url } = target;
  const options: RequestOptions = {
    method: 'POST',
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    lookup: pinned,
    agent: false,
    headers: {
      ...headers,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    },
  };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () =>
        finish({ status: res.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8'), error: null });
      res.on('data', (chunk: Buffer) => {
        const room = RESPONSE_BYTES - size;
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size += chunk.length;
        if (size >= RESPONSE_BYTES) done();
      });
      res.on('end', done);
      res.on('error', (error) => finish({ status: res.statusCode ?? null, body: '', error: error.message }));
    });
    const timer = setTimeout(
      () => finish({ status: null, body: '', error: `No answer within ${timeoutMs / 1000} s` }),
      timeoutMs,
    );
    req.on('error', (error) => finish({ status: null, body: '', error: error.message }));
    req.end(body);
  });
}

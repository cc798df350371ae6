import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_PATH } from '@portal/contracts';
import { POLICY } from '@portal/gateway';
import { startStack, type Stack } from '@portal/runner';
import { callGateway, signInThroughGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * Issue 20.1 and 20.2: the gateway decides its policy on the path the
 * upstream routes. Every route of the policy table is called plain and in
 * percent-encoded forms that the services decode to the same path; each form
 * must be answered as the plain path is (or refused with 400). Absolute-form
 * request targets never reach a check.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const USERS = ['partner.user', 'merchant.user'];

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  for (const username of USERS)
    tokens.set(username, await signInThroughGateway(stack.gatewayUrl, 'acme', username));
});

afterAll(async () => {
  await stack?.close();
  await t?.close();
});

const hex = (ch: string, upper: boolean) => {
  const h = ch.charCodeAt(0).toString(16);
  return `%${upper ? h.toUpperCase() : h}`;
};
/** Encodes the characters of the path after `/api/` that `pick` selects. */
const encodeChars = (path: string, pick: (ch: string, i: number) => boolean, upper = false) =>
  '/api/' + [...path.slice(5)].map((ch, i) => (ch !== '/' && pick(ch, i) ? hex(ch, upper) : ch)).join('');

/** A concrete path for a rule: parameters become 1, a trailing wildcard one more segment. */
const concrete = (pattern: string) =>
  pattern
    .split('/')
    .map((s) => (s.startsWith(':') ? '1' : s === '*' ? 'x' : s))
    .join('/');

/** Forms the upstream router decodes to the same path as `path`. */
function equivalentForms(path: string): string[] {
  const last = path.lastIndexOf('/');
  return [
    // one letter of the last segment (the probe's `/api/cm/cases/%71c`)
    encodeChars(path, (_ch, i) => i === last - 4),
    // every letter and digit, lower-case hex
    encodeChars(path, (ch) => /[A-Za-z0-9]/.test(ch)),
    // every unreserved character, upper-case hex, with a trailing slash
    `${encodeChars(path, (ch) => /[A-Za-z0-9._~-]/.test(ch), true)}/`,
  ];
}

// GET /api/live answers an event stream that stays open (the call never completes): left out.
const routes = POLICY.filter((r) => !r.public && r.path !== LIVE_PATH).flatMap((r) =>
  r.methods
    .filter((m) => m !== 'HEAD' && m !== 'OPTIONS')
    .map((method) => ({ method, path: concrete(r.path) })),
);

describe('percent-encoded paths meet the same policy as the plain path', () => {
  it.each(USERS)(
    'every policy-table route, as %s',
    async (username) => {
      const token = tokens.get(username)!;
      const mismatches: string[] = [];
      for (const { method, path } of routes) {
        const body = method === 'GET' ? undefined : {};
        const plain = await callGateway(stack.gatewayUrl, 'acme', method, path, { token, body });
        expect(plain.status, `${method} ${path}`).toBeLessThan(500);
        for (const form of equivalentForms(path)) {
          const r = await callGateway(stack.gatewayUrl, 'acme', method, form, { token, body });
          // A write the user may make could change state between the calls: only the refusals must match.
          const comparable = method === 'GET' || plain.status === 403;
          if (r.status >= 500 || (comparable && r.status !== plain.status && r.status !== 400))
            mismatches.push(`${method} ${form}: ${r.status} (plain ${path}: ${plain.status})`);
        }
      }
      expect(mismatches).toEqual([]);
      // Hundreds of calls in a row: a few seconds alone, longer beside other files on a loaded machine.
    },
    120_000,
  );

  it.each([
    ['GET', '/api/cm/cases/%71c', 'partner.user'],
    ['GET', '/api/cm/%72eview', 'partner.user'],
    ['GET', '/api/users/users.%78lsx', 'merchant.user'],
    ['PATCH', '/api/cm/cases/%71c', 'merchant.user'],
  ])('the probe: %s %s as %s is refused as the plain path is', async (method, path, username) => {
    const r = await callGateway(stack.gatewayUrl, 'acme', method, path, {
      token: tokens.get(username)!,
      body: method === 'GET' ? undefined : {},
    });
    expect(r.status).toBe(403);
  });

  it('a double-encoded character is a different (literal) path, never the staff route', async () => {
    const r = await callGateway(stack.gatewayUrl, 'acme', 'GET', '/api/cm/cases/%2571c', {
      token: tokens.get('partner.user')!,
    });
    expect(r.status).toBe(400); // the case service: '%71c' is not a case id
  });

  it.each(['/api/cm/cases/qc#x', '/api/cm/cases/q%00c', '/api/cm/cases%2Fqc', '/api/cm/%2e%2e/cm/cases/qc'])(
    'refuses %s before any check',
    async (path) => {
      const r = await callGateway(stack.gatewayUrl, 'acme', 'GET', path, {
        token: tokens.get('partner.user')!,
      });
      expect(r.status).toBe(400);
      expect(r.json.message).toBe('Invalid request path.');
    },
  );
});

/** One raw HTTP/1.1 exchange: the request line exactly as given. */
function rawRequest(requestLine: string, headers: string[]): Promise<string> {
  const url = new URL(stack.gatewayUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`${requestLine}\r\n${headers.join('\r\n')}\r\nConnection: close\r\n\r\n`);
    });
    let data = '';
    socket.on('data', (c: Buffer) => (data += c.toString('utf8')));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

describe('absolute-form request targets', () => {
  it.each([
    'GET http://acme.localhost:8080/api/config/cfg/slim HTTP/1.1',
    'GET http://acme.localhost/api/cm/cases/qc HTTP/1.1',
    'GET https://northbank.localhost/api/users/users HTTP/1.1',
    'GET http://acme.localhost/ HTTP/1.1',
  ])('%s is refused with 400 before token, tenant or path checks', async (line) => {
    const answer = await rawRequest(line, ['Host: acme.localhost']);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(answer).toContain('Invalid request path.');
  });

  it('the same call in origin-form still needs a token', async () => {
    const answer = await rawRequest('GET /api/config/cfg/slim HTTP/1.1', ['Host: acme.localhost']);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
  });
});

describe('the Host header (issue 27.G)', () => {
  it.each([
    ['Host: acme.localhost', 'Host: northbank.localhost'],
    ['Host: northbank.localhost', 'host: acme.localhost'],
    ['Host: acme.localhost', 'Host: acme.localhost'],
  ])('two Host headers (%s, %s) are refused with 400, for pages and API calls', async (...hosts) => {
    for (const line of ['GET /api/tenant HTTP/1.1', 'GET /dashboard HTTP/1.1']) {
      const answer = await rawRequest(line, hosts);
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
      expect(answer).toContain('A request must carry exactly one Host header.');
    }
  });

  it('one Host header is answered as before', async () => {
    const answer = await rawRequest('GET /api/tenant HTTP/1.1', ['Host: northbank.localhost']);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(answer).toContain('"id":"northbank"');
  });
});

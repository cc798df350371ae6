import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '@portal/gateway';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import {
  claimsFor,
  ed25519Signer,
  fakeEchoService,
  fakeUserService,
  profile,
  type FakeEchoService,
  type FakeUserService,
} from './fakes';

/** X-Forwarded-* count only from TRUST_PROXY addresses (never the client's left-most XFF). */
let t: TestEnv;
let gateway: Awaited<ReturnType<typeof buildGateway>>;
let user: FakeUserService;
let cases: FakeEchoService;
const signer = ed25519Signer();

beforeAll(async () => {
  t = await createTestEnv({ TRUST_PROXY: '10.0.0.1' });
  user = await fakeUserService(t.deps.contextSecret, signer);
  user.profiles.set('northbank:2000006', profile(2000006));
  cases = await fakeEchoService(t.deps.contextSecret, 'case');
  gateway = await buildGateway(
    {
      env: t.env,
      cache: t.deps.cache,
      log: t.deps.log,
      contextSecret: t.deps.contextSecret,
      upstreams: { case: cases.url, user: user.url, docs: cases.url, builder: cases.url },
    },
    { watchTenants: false },
  );
});
afterAll(async () => {
  await gateway?.close();
  await Promise.all([user?.close(), cases?.close()]);
  await t?.close();
});

describe('behind a trusted proxy', () => {
  const forwarded = {
    'x-forwarded-for': '6.6.6.6, 203.0.113.7',
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'northbank.localhost',
  };

  it('takes the client address, scheme and host from the trusted proxy only', async () => {
    const headers = {
      host: 'internal:8080',
      authorization: `Bearer ${signer.token(claimsFor(2000006, 'northbank'))}`,
      ...forwarded,
    };
    const viaProxy = await gateway.inject({ url: '/api/cm/cases', headers, remoteAddress: '10.0.0.1' });
    expect(viaProxy.statusCode).toBe(200);
    expect(viaProxy.json().headers['x-client-ip']).toBe('203.0.113.7');
    expect(viaProxy.json().ctx.tenant).toBe('northbank');
    const page = await gateway.inject({
      url: '/dashboard',
      headers: { host: 'internal:8080', ...forwarded },
      remoteAddress: '10.0.0.1',
    });
    expect(page.headers['strict-transport-security']).toContain('max-age=');
    expect(page.headers['content-security-policy']).toContain('upgrade-insecure-requests');
  });

  it('ignores forwarding headers from anyone else', async () => {
    const page = await gateway.inject({
      url: '/api/tenant',
      headers: { host: 'acme.localhost', ...forwarded },
      remoteAddress: '10.9.9.9',
    });
    expect(page.json().id).toBe('acme');
    const html = await gateway.inject({
      url: '/dashboard',
      headers: { host: 'acme.localhost', ...forwarded },
      remoteAddress: '10.9.9.9',
    });
    expect(html.headers['strict-transport-security']).toBeUndefined();
  });
});

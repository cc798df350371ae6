import { describe, expect, it } from 'vitest';
import { useGatewayHarness } from '../../support/gateway-harness';
import { profile } from './fakes';

/** X-Forwarded-* count only from TRUST_PROXY addresses (never the client's left-most XFF). */
const h = useGatewayHarness({
  env: { TRUST_PROXY: '10.0.0.1' },
  profiles: { 'northbank:2000006': profile(2000006) },
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
      authorization: `Bearer ${h.token(2000006, 'northbank')}`,
      ...forwarded,
    };
    const viaProxy = await h.inject({ url: '/api/cm/cases', headers, remoteAddress: '10.0.0.1' });
    expect(viaProxy.statusCode).toBe(200);
    expect(viaProxy.json().headers['x-client-ip']).toBe('203.0.113.7');
    expect(viaProxy.json().ctx.tenant).toBe('northbank');
    const page = await h.inject({
      url: '/dashboard',
      headers: { host: 'internal:8080', ...forwarded },
      remoteAddress: '10.0.0.1',
    });
    expect(page.headers['strict-transport-security']).toContain('max-age=');
    expect(page.headers['content-security-policy']).toContain('upgrade-insecure-requests');
  });

  it('ignores forwarding headers from anyone else', async () => {
    const page = await h.inject({
      url: '/api/tenant',
      headers: { host: 'acme.localhost', ...forwarded },
      remoteAddress: '10.9.9.9',
    });
    expect(page.json().id).toBe('acme');
    const html = await h.inject({
      url: '/dashboard',
      headers: { host: 'acme.localhost', ...forwarded },
      remoteAddress: '10.9.9.9',
    });
    expect(html.headers['strict-transport-security']).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { canonicalTarget } from './request-target';

describe('canonicalTarget', () => {
  it('keeps plain targets as they are (trailing slash dropped)', () => {
    expect(canonicalTarget('/api/cm/cases?limit=1')).toEqual({
      path: '/api/cm/cases',
      url: '/api/cm/cases?limit=1',
    });
    expect(canonicalTarget('/api/cm/cases/?a=b')).toEqual({
      path: '/api/cm/cases',
      url: '/api/cm/cases?a=b',
    });
    expect(canonicalTarget('/')).toEqual({ path: '/', url: '/' });
    expect(canonicalTarget('/users/.well-known/jwks.json')?.path).toBe('/users/.well-known/jwks.json');
  });

  it('decodes percent-encoded unreserved characters: the policy sees what the upstream routes', () => {
    expect(canonicalTarget('/api/cm/cases/%71c')).toEqual({
      path: '/api/cm/cases/qc',
      url: '/api/cm/cases/qc',
    });
    expect(canonicalTarget('/api/cm/%72eview?x=%71')).toEqual({
      path: '/api/cm/review',
      url: '/api/cm/review?x=%71',
    });
    expect(canonicalTarget('/api/users/users.%78lsx')?.path).toBe('/api/users/users.xlsx');
    expect(canonicalTarget('/api/%63%6D/cases/%51%43')?.path).toBe('/api/cm/cases/QC');
    expect(canonicalTarget('/api/cm/cases/a%2eb')?.path).toBe('/api/cm/cases/a.b');
  });

  it('decodes once: a double-encoded character stays a literal percent sign, re-encoded', () => {
    expect(canonicalTarget('/api/cm/cases/%2571c')).toEqual({
      path: '/api/cm/cases/%71c',
      url: '/api/cm/cases/%2571c',
    });
  });

  it('re-encodes what a path segment cannot carry literally', () => {
    expect(canonicalTarget('/api/docs/files/a%20b%3Fc%23d')).toEqual({
      path: '/api/docs/files/a b?c#d',
      url: '/api/docs/files/a%20b%3Fc%23d',
    });
    expect(canonicalTarget('/api/x/%C3%A9')?.url).toBe('/api/x/%C3%A9');
  });

  it.each([
    'http://acme.localhost:8080/api/config/cfg/slim',
    'HTTP://acme.localhost/api/cm/cases',
    'acme.localhost:443',
    '*',
    '',
    '/api/cm/cases/qc#x',
    '/api/cm/cases?x=1#frag',
    '/api/cm/../users/users',
    '/api/cm/./cases',
    '/api/cm/%2e%2e/users/users',
    '/api/cm/%2E/cases',
    '/api/cm/..%2Fusers',
    '/api/cm//cases',
    '/api/cm/cases%2F1',
    '/api/cm/cases%5c1',
    '/api/cm/.\\./users',
    '/api/cm/cases/%00',
    '/api/cm/cases/a%0ab',
    '/api/cm/cases/%7f',
    '/api/cm/cases/%zz',
    '/api/cm/cases/%',
    '/api/cm/cases/%C3',
    '/api/cm/cases/%FF%FE',
  ])('refuses %j', (target) => {
    expect(canonicalTarget(target)).toBeNull();
  });
});

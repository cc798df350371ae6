import { describe, expect, it } from 'vitest';
import { signContext, systemContext, verifyContext } from './internal-context';

const SECRET = 'a-test-secret-that-is-long-enough-1234';

describe('signed internal context', () => {
  const context = {
    ...systemContext('acme', 'req-1'),
    kind: 'user' as const,
    user_id: 5,
    roles: ['merchant_user'],
  };

  it('round-trips', () => {
    const check = verifyContext(signContext(context, SECRET), SECRET);
    expect(check.ok && check.context.user_id).toBe(5);
  });

  it('refuses a tampered payload, another key, garbage and expired contexts', () => {
    const header = signContext(context, SECRET);
    const [payload, mac] = header.split('.');
    const tampered = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload!, 'base64url').toString()),
        roles: ['cb911_admin'],
      }),
    ).toString('base64url');
    expect(verifyContext(`${tampered}.${mac}`, SECRET)).toEqual({
      ok: false,
      reason: 'bad internal context signature',
    });
    expect(verifyContext(header, `${SECRET}x`).ok).toBe(false);
    expect(verifyContext('nonsense', SECRET).ok).toBe(false);
    expect(verifyContext(undefined, SECRET)).toEqual({ ok: false, reason: 'missing internal context' });
    const old = signContext(context, SECRET, Date.now() - 120_000);
    expect(verifyContext(old, SECRET)).toEqual({ ok: false, reason: 'expired internal context' });
  });
});

import { describe, expect, it } from 'vitest';
import type { UserProfile } from '@portal/contracts';
import { contextWithoutUser, signContext, verifyContext } from '@portal/core';
import { ContextSigner } from './context-signer';

const user = (over: Partial<UserProfile> = {}) =>
  ({
    id: 1000006,
    username: 'zoë "quoted" \\ user',
    roles: ['merchant_admin', 'merchant_user'],
    merchant: { id: 1000011 },
    is_read_only: false,
    mids_allowed: ['11', '12'],
    mids_excluded: ['13'],
    ...over,
  }) as unknown as UserProfile;

const userContext = (tenant: string, eff: UserProfile, actorId: number, requestId: string) => ({
  tenant,
  user_id: eff.id,
  actor_id: actorId,
  username: eff.username,
  roles: eff.roles,
  merchant_id: eff.merchant.id,
  read_only: eff.is_read_only,
  mids_allowed: eff.mids_allowed,
  mids_excluded: eff.mids_excluded,
  request_id: requestId,
  kind: 'user' as const,
});

describe('ContextSigner', () => {
  const secrets = ['s', 'x'.repeat(43), 'ü'.repeat(40), 'k'.repeat(64), 'long'.repeat(40)];
  const now = 1_763_900_000_123;

  it('signs exactly as signContext, for any secret length (keys over 64 bytes are hashed)', () => {
    for (const secret of secrets) {
      const signer = new ContextSigner(secret);
      const ctx = contextWithoutUser('acme', 'req-12345678', 'public');
      expect(signer.sign(ctx, now)).toBe(signContext(ctx, secret, now));
      const eff = user();
      const expected = signContext(userContext('acme', eff, 7, 'req-abcdefgh'), secret, now);
      expect(signer.signUser('acme', eff, 7, 'req-abcdefgh', now)).toBe(expected);
      // Reused user part, another request id and time: still the same bytes as signContext.
      expect(signer.signUser('acme', eff, 7, 'other-request-id', now + 5000)).toBe(
        signContext(userContext('acme', eff, 7, 'other-request-id'), secret, now + 5000),
      );
    }
  });

  it('keeps tenant, actor and profile apart in its reuse of the user part', () => {
    const signer = new ContextSigner('secret');
    const a = user();
    const b = user({ id: 1000007, is_read_only: true, mids_allowed: [] });
    for (const [tenant, eff, actor] of [
      ['acme', a, 1000006],
      ['acme', a, 99],
      ['beta', a, 1000006],
      ['acme', b, 1000006],
      ['acme', a, 1000006],
    ] as const) {
      const header = signer.signUser(tenant, eff, actor, 'req-00000001', now);
      const check = verifyContext(header, 'secret', now);
      expect(check.ok).toBe(true);
      if (check.ok) {
        expect(check.context.tenant).toBe(tenant);
        expect(check.context.actor_id).toBe(actor);
        expect(check.context.user_id).toBe(eff.id);
        expect(check.context.read_only).toBe(eff.is_read_only);
        expect(check.context.request_id).toBe('req-00000001');
      }
    }
  });

  it('is refused with another secret and after its validity', () => {
    const header = new ContextSigner('one').signUser('acme', user(), 1, 'req-00000001', now);
    expect(verifyContext(header, 'two', now).ok).toBe(false);
    expect(verifyContext(header, 'one', now + 61_000).ok).toBe(false);
  });
});

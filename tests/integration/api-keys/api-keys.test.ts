import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY_MESSAGES as M,
  API_KEY_PATTERN,
  API_KEY_RATE_PER_MINUTE,
  demoMerchantId,
  demoTenant,
  IMPERSONATE_HEADER,
} from '@portal/contracts';
import { RedisCache } from '@portal/core';
import { buildGateway } from '@portal/gateway';
import { pollStatus, startKeyWorld, type KeyWorld } from './support';

/**
 * Merchant API keys end to end (issue 35.1) through the gateway, on real
 * Postgres and Redis: created by an admin, used as `Authorization: Bearer
 * cbp_live_...`, only with its scopes and its merchant's data, never more than
 * its creator holds at each call; revoked, expired, rotated; audited.
 */
let w: KeyWorld;
const ACME = demoTenant('acme');
const A1 = demoMerchantId(ACME, 'merchantA1');
const A2 = demoMerchantId(ACME, 'merchantA2');
const tokens = new Map<string, string>();
const tok = (u: string) => tokens.get(u)!;

beforeAll(async () => {
  w = await startKeyWorld();
  for (const u of ['admin', 'partner.admin', 'merchant.admin', 'merchant.user', 'readonly'])
    tokens.set(u, await w.signIn(u));
}, 60_000);
afterAll(async () => w?.close());

interface Made {
  id: string;
  secret: string;
  prefix: string;
  last_four: string;
  merchant_id: number;
  scopes: string[];
  status: string;
}

async function createKey(by: string, body: Record<string, unknown>): Promise<Made> {
  const r = await w.call('POST', '/api/users/api-keys', { token: tok(by), body });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json as unknown as Made;
}

const cases = (key: string, query = 'limit=200') => w.call('GET', `/api/cm/cases?${query}`, { token: key });
const totalOf = (r: { json: Record<string, unknown> }) => (r.json.pagination as { total: number }).total;

describe('creating and listing keys', () => {
  it('answers the secret once, stores only its hash, and lists prefix and last four', async () => {
    const made = await createKey('merchant.admin', { name: '  ERP export ', scopes: ['cases:read'] });
    expect(made.secret).toMatch(API_KEY_PATTERN);
    expect(made).toMatchObject({
      name: 'ERP export',
      prefix: `cbp_live_${made.id}`,
      last_four: made.secret.slice(-4),
      merchant_id: A1,
      scopes: ['cases:read'],
      status: 'active',
    });
    const list = await w.call('GET', '/api/users/api-keys', { token: tok('merchant.admin') });
    expect(list.status).toBe(200);
    const row = (list.json.data as Made[]).find((k) => k.id === made.id);
    expect(row).toMatchObject({
      prefix: made.prefix,
      last_four: made.last_four,
      created_by: { username: 'merchant.admin' },
    });
    expect(JSON.stringify(list.json)).not.toContain(made.secret.slice(18));
    const stored = await w.t.db.query<{ row: string }>(
      `select row_to_json(k)::text as row from users.api_keys k where id = $1`,
      [made.id],
    );
    expect(stored.rows[0]!.row).not.toContain(made.secret.slice(18));
    const audit = await w.t.db.query<{ detail: string }>(
      `select detail::text from users.audit_log where action = 'api_key.create' and detail->>'key_id' = $1`,
      [made.id],
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]!.detail).not.toContain(made.secret.slice(18));
  });

  it('refuses read-only users, merchant users and merchants out of scope, with clear messages', async () => {
    const body = { name: 'x', scopes: ['cases:read'] };
    const ro = await w.call('POST', '/api/users/api-keys', { token: tok('readonly'), body });
    expect(ro.status).toBe(403);
    const mu = await w.call('POST', '/api/users/api-keys', { token: tok('merchant.user'), body });
    expect(mu.status).toBe(403);
    const other = await w.call('POST', '/api/users/api-keys', {
      token: tok('merchant.admin'),
      body: { ...body, merchant_id: A2 },
    });
    expect(other.status).toBe(403);
    expect(other.json.message).toBe(M.merchantOutOfScope);
    const past = await w.call('POST', '/api/users/api-keys', {
      token: tok('merchant.admin'),
      body: { ...body, expires_at: new Date(Date.now() - 60_000).toISOString() },
    });
    expect(past.status).toBe(400);
    expect(past.json.message).toBe(M.expiryPast);
    const badScope = await w.call('POST', '/api/users/api-keys', {
      token: tok('merchant.admin'),
      body: { name: 'x', scopes: ['cases:write'] },
    });
    expect(badScope.status).toBe(400);
    const hooks = await w.call('POST', '/api/users/api-keys', {
      token: tok('partner.admin'),
      body: { name: 'x', scopes: ['webhooks:manage'], merchant_id: A1 },
    });
    expect(hooks.status).toBe(400);
    expect(hooks.json.message).toBe(M.webhooksOwnMerchant);
  });
});

describe('calling with a key', () => {
  it('lists only its merchant subtree, as its creator sees it', async () => {
    const key = await createKey('merchant.admin', { name: 'cases', scopes: ['cases:read'] });
    const withKey = await cases(key.secret);
    expect(withKey.status, JSON.stringify(withKey.json)).toBe(200);
    const asUser = await w.call('GET', '/api/cm/cases?limit=200', { token: tok('merchant.admin') });
    expect(totalOf(withKey)).toBe(totalOf(asUser));
    expect(totalOf(withKey)).toBeGreaterThan(0);
    for (const c of withKey.json.data as Array<{ merchant_id: number }>) expect(c.merchant_id).toBe(A1);
  });

  it("narrows a provider admin's key to the key's merchant, and hides other merchants' cases", async () => {
    const key = await createKey('admin', { name: 'one merchant', scopes: ['cases:read'], merchant_id: A1 });
    const r = await cases(key.secret);
    expect(r.status).toBe(200);
    for (const c of r.json.data as Array<{ merchant_id: number }>) expect(c.merchant_id).toBe(A1);
    const all = await w.call('GET', '/api/cm/cases?limit=200', { token: tok('admin') });
    expect(totalOf(all)).toBeGreaterThan(totalOf(r));
    const foreign = (all.json.data as Array<{ id: number; merchant_id: number }>).find(
      (c) => c.merchant_id !== A1,
    )!;
    expect(foreign).toBeDefined();
    const detail = await w.call('GET', `/api/cm/cases/${foreign.id}`, { token: key.secret });
    expect(detail.status).toBe(404);
    const own = (r.json.data as Array<{ id: number }>)[0]!;
    const ownDetail = await w.call('GET', `/api/cm/cases/${own.id}`, { token: key.secret });
    expect(ownDetail.status).toBe(200);
    const history = await w.call('GET', `/api/cm/cases/${own.id}/history`, { token: key.secret });
    expect(history.status).toBe(200);
  });

  it('refuses every route outside its scopes, user administration, key management and impersonation', async () => {
    const key = await createKey('merchant.admin', { name: 'narrow', scopes: ['cases:read'] });
    const refused: Array<[string, string, unknown?]> = [
      ['GET', '/api/cm/cases/reports/win-rate'],
      ['GET', '/api/users/users'],
      ['POST', '/api/users/whoami', {}],
      ['GET', '/api/users/api-keys'],
      ['POST', '/api/users/api-keys', { name: 'x', scopes: ['cases:read'] }],
      ['GET', '/api/users/webhooks'],
      ['GET', '/api/docs/representment/upload-link?case_id=1'],
      ['PATCH', '/api/cm/cases/1/edit', { verdict_id: 1 }],
      ['GET', '/api/cm/cases.csv'],
    ];
    for (const [method, path, body] of refused) {
      const r = await w.call(method, path, { token: key.secret, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.json.message).toBe(M.keyForbidden);
    }
    const imp = await w.call('GET', '/api/cm/cases?limit=1', {
      token: key.secret,
      headers: { [IMPERSONATE_HEADER]: String(w.userId('merchant.user')) },
    });
    expect(imp.status).toBe(403);
    expect(imp.json.message).toBe(M.keyNoImpersonation);
    const reports = await createKey('merchant.admin', { name: 'reports', scopes: ['reports:read'] });
    expect(
      (await w.call('GET', '/api/cm/cases/reports/cases-status-totals', { token: reports.secret })).status,
    ).toBe(200);
    expect((await cases(reports.secret)).status).toBe(403);
    const hooks = await createKey('merchant.admin', { name: 'hooks', scopes: ['webhooks:manage'] });
    expect((await w.call('GET', '/api/users/webhooks', { token: hooks.secret })).status).toBe(200);
  });

  it('refuses unknown, malformed and tampered keys with 401 JSON', async () => {
    const key = await createKey('merchant.admin', { name: 'tamper', scopes: ['cases:read'] });
    const last = key.secret.slice(-1) === 'A' ? 'B' : 'A';
    for (const bad of [
      `${key.secret.slice(0, -1)}${last}`,
      'cbp_live_zzzzzzzz_x',
      `cbp_live_abcdefgh_${'A'.repeat(43)}`,
    ]) {
      const r = await cases(bad);
      expect(r.status, bad).toBe(401);
      expect(r.json.message).toBe(M.invalidKey);
    }
  });

  it('audits every call with the key id and records the last use', async () => {
    const key = await createKey('merchant.admin', { name: 'audited', scopes: ['cases:read'] });
    const r = await cases(key.secret, 'limit=1');
    expect(r.status).toBe(200);
    const requestId = r.headers.get('x-request-id');
    let rows: Array<{ actor_kind: string; api_key_id: string; actor_id: string; route: string }> = [];
    for (let i = 0; i < 40 && rows.length === 0; i++) {
      ({ rows } = await w.t.db.query(
        `select actor_kind, api_key_id, actor_id::text as actor_id, route from users.audit_log where request_id = $1`,
        [requestId],
      ));
      if (!rows.length) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(rows).toEqual([
      {
        actor_kind: 'api_key',
        api_key_id: key.id,
        actor_id: String(w.userId('merchant.admin')),
        route: '/api/cm/cases',
      },
    ]);
    // The audit log screen's call names the key beside its creator.
    const audit = await w.call(
      'GET',
      `/api/users/audit?target=${encodeURIComponent('/api/cm/cases')}&limit=50`,
      {
        token: tok('merchant.admin'),
      },
    );
    expect(audit.status, JSON.stringify(audit.json)).toBe(200);
    expect(
      (audit.json.data as Array<{ request_id: string; api_key_id: string | null }>).find(
        (e) => e.request_id === requestId,
      )?.api_key_id,
    ).toBe(key.id);
    const list = await w.call('GET', '/api/users/api-keys', { token: tok('merchant.admin') });
    const row = (
      list.json.data as Array<{ id: string; last_used_at: string | null; last_used_ip: string | null }>
    ).find((k) => k.id === key.id)!;
    expect(row.last_used_at).not.toBeNull();
    expect(row.last_used_ip).toMatch(/127\.0\.0\.1/);
  });

  it('never writes a secret to the logs', async () => {
    const key = await createKey('merchant.admin', { name: 'logs', scopes: ['cases:read'] });
    await cases(key.secret, 'limit=1');
    await cases(`${key.secret.slice(0, -2)}zz`, 'limit=1');
    await w.call('GET', '/api/users/users', { token: key.secret });
    const secretPart = key.secret.slice(18);
    expect(w.logs.length).toBeGreaterThan(0);
    expect(w.logs.join('\n')).not.toContain(secretPart);
  });

  it('limits calls per key (429 past the per-minute limit), not per creator', async () => {
    const key = await createKey('merchant.admin', { name: 'limit', scopes: ['cases:read'] });
    let limited = 0;
    for (let i = 0; i < API_KEY_RATE_PER_MINUTE + 5; i++) {
      const r = await w.call('GET', '/api/cm/cases/1', { token: key.secret });
      if (r.status === 429) limited++;
    }
    expect(limited).toBeGreaterThanOrEqual(5);
    // Another key of the same creator, and the creator's own session, are not held back.
    const other = await createKey('merchant.admin', { name: 'limit 2', scopes: ['cases:read'] });
    expect((await cases(other.secret, 'limit=1')).status).toBe(200);
    expect((await w.call('GET', '/api/cm/cases?limit=1', { token: tok('merchant.admin') })).status).toBe(200);
  });
});

describe('ending a key', () => {
  it('refuses a revoked key within a second', async () => {
    const key = await createKey('merchant.admin', { name: 'revoke', scopes: ['cases:read'] });
    expect((await cases(key.secret, 'limit=1')).status).toBe(200);
    const revoked = await w.call('POST', `/api/users/api-keys/${key.id}/revoke`, {
      token: tok('merchant.admin'),
    });
    expect(revoked.status).toBe(200);
    expect(revoked.json.status).toBe('revoked');
    const took = await pollStatus(() => cases(key.secret, 'limit=1'), 401, 1000);
    expect(took).toBeGreaterThanOrEqual(0);
    expect(took).toBeLessThanOrEqual(1000);
  });

  it('refuses a revoked key within a second on another gateway replica too', async () => {
    // A second gateway with its own Redis connection (its own invalidation subscription), as in production.
    const cache = new RedisCache({ url: w.t.redisUrl, keyPrefix: w.t.redisPrefix, log: w.t.deps.log });
    const replica = await buildGateway(
      { ...w.t.deps, cache, upstreams: w.stack.serviceUrls },
      { watchTenants: false },
    );
    try {
      const key = await createKey('merchant.admin', { name: 'replica', scopes: ['cases:read'] });
      const viaReplica = async () => {
        const r = await replica.inject({
          method: 'GET',
          url: '/api/cm/cases?limit=1',
          headers: { host: 'acme.localhost', authorization: `Bearer ${key.secret}` },
        });
        return { status: r.statusCode, json: {}, headers: { get: () => null } };
      };
      expect((await viaReplica()).status).toBe(200);
      expect((await cases(key.secret, 'limit=1')).status).toBe(200);
      const revoked = await w.call('POST', `/api/users/api-keys/${key.id}/revoke`, {
        token: tok('merchant.admin'),
      });
      expect(revoked.status).toBe(200);
      const took = await pollStatus(viaReplica, 401, 1000);
      expect(took).toBeGreaterThanOrEqual(0);
      expect(took).toBeLessThanOrEqual(1000);
    } finally {
      await replica.close();
      await cache.close();
    }
  });

  it('refuses an expired key', async () => {
    const key = await createKey('merchant.admin', {
      name: 'expires',
      scopes: ['cases:read'],
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    expect((await cases(key.secret, 'limit=1')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await cases(key.secret, 'limit=1')).status).toBe(401);
  });

  it('rotates: the new key has the same scopes, the old one works during the grace period only', async () => {
    const key = await createKey('merchant.admin', { name: 'rotate', scopes: ['cases:read', 'reports:read'] });
    const rotated = await w.call('POST', `/api/users/api-keys/${key.id}/rotate`, {
      token: tok('merchant.admin'),
      body: { grace_seconds: 3600 },
    });
    expect(rotated.status).toBe(201);
    const fresh = rotated.json as unknown as Made & { rotated_from: string };
    expect(fresh).toMatchObject({
      scopes: ['cases:read', 'reports:read'],
      rotated_from: key.id,
      name: 'rotate',
    });
    expect(fresh.secret).not.toBe(key.secret);
    expect((await cases(fresh.secret, 'limit=1')).status).toBe(200);
    expect((await cases(key.secret, 'limit=1')).status).toBe(200);
    const list = await w.call('GET', '/api/users/api-keys', { token: tok('merchant.admin') });
    expect((list.json.data as Made[]).find((k) => k.id === key.id)!.status).toBe('grace');
    // Rotating the new one with no grace ends it at once.
    const again = await w.call('POST', `/api/users/api-keys/${fresh.id}/rotate`, {
      token: tok('merchant.admin'),
      body: { grace_seconds: 0 },
    });
    expect(again.status).toBe(201);
    expect(await pollStatus(() => cases(fresh.secret, 'limit=1'), 401, 1000)).toBeGreaterThanOrEqual(0);
    expect((await cases((again.json as unknown as Made).secret, 'limit=1')).status).toBe(200);
    const bad = await w.call('POST', `/api/users/api-keys/${key.id}/rotate`, {
      token: tok('merchant.admin'),
      body: { grace_seconds: 60 },
    });
    expect(bad.status).toBe(400);
  });

  it("stops when its creator is locked, and follows the creator's role", async () => {
    const creator = w.userId('partner.admin');
    const key = await createKey('partner.admin', {
      name: 'partner',
      scopes: ['cases:read'],
      merchant_id: A1,
    });
    expect((await cases(key.secret, 'limit=1')).status).toBe(200);

    const locked = await w.call('POST', `/api/users/users/${creator}/lock`, { token: tok('admin') });
    expect(locked.status, JSON.stringify(locked.json)).toBe(200);
    expect(await pollStatus(() => cases(key.secret, 'limit=1'), 401, 1500)).toBeGreaterThanOrEqual(0);
    expect((await w.call('POST', `/api/users/users/${creator}/enable`, { token: tok('admin') })).status).toBe(
      200,
    );
    expect(await pollStatus(() => cases(key.secret, 'limit=1'), 200, 1500)).toBeGreaterThanOrEqual(0);

    // partner_user (role id 3) may not manage keys: the key loses what its creator lost.
    const lowered = await w.call('PATCH', `/api/users/users/${creator}`, {
      token: tok('admin'),
      body: { role: 3 },
    });
    expect(lowered.status, JSON.stringify(lowered.json)).toBe(200);
    expect(await pollStatus(() => cases(key.secret, 'limit=1'), 401, 1500)).toBeGreaterThanOrEqual(0);
    const restored = await w.call('PATCH', `/api/users/users/${creator}`, {
      token: tok('admin'),
      body: { role: 2 },
    });
    expect(restored.status).toBe(200);
    expect(await pollStatus(() => cases(key.secret, 'limit=1'), 200, 1500)).toBeGreaterThanOrEqual(0);
  });
});

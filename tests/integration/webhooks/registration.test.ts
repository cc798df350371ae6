import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, WEBHOOK_MAX_ENDPOINTS, WEBHOOK_MESSAGES as M } from '@portal/contracts';
import { openSecret } from '../../../services/user/src/webhooks/signing';
import { checkTarget, parseAllowedNetworks } from '../../../services/user/src/webhooks/ssrf';
import { ACME, demoCtx } from '../case/case-app';
import { startWebhookWorld, type WebhookWorld } from './support';

/** /users/webhooks registration rules (issue 19): who may register, what URL, the secret shown once. */
let w: WebhookWorld;
const mAdmin = demoCtx('acme', 'merchant.admin');
const pAdmin = demoCtx('acme', 'partner.admin');
const a2Admin = demoCtx('acme', 'federated');
const readonly = demoCtx('acme', 'readonly');
const body = { url: 'https://8.8.8.8/hooks', events: ['CASE_STATUS_CHANGED'], description: 'ERP' };

beforeAll(async () => {
  // No allow-list: loopback and private networks are refused as in production.
  w = await startWebhookWorld({ WEBHOOK_ALLOWED_NETWORKS: '' });
});
afterAll(async () => w?.close());

describe('registering an endpoint', () => {
  it('shows the signing secret once, keeps it sealed, and lists the endpoint without it', async () => {
    const r = await w.userCall('POST', '/users/webhooks', mAdmin, { ...body, description: '  ERP  ' });
    expect(r.status, r.raw).toBe(201);
    expect(r.body).toMatchObject({
      url: 'https://8.8.8.8/hooks',
      description: 'ERP',
      events: ['CASE_STATUS_CHANGED'],
      is_active: true,
      merchant_id: demoMerchantId(ACME, 'merchantA1'),
      created_by: 'merchant.admin',
    });
    expect(r.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(r.body.secret_hint).toBe(r.body.secret.slice(-4));

    const stored = await w.t.db.query<{ secret_enc: string }>(
      'select secret_enc from users.webhook_endpoints where id = $1',
      [r.body.id],
    );
    expect(stored.rows[0]!.secret_enc).not.toContain(r.body.secret);
    expect(openSecret(w.t.deps.contextSecret, stored.rows[0]!.secret_enc)).toBe(r.body.secret);

    const list = await w.userCall('GET', '/users/webhooks', mAdmin);
    expect(list.status).toBe(200);
    const mine = list.body.data.find((e: { id: number }) => e.id === r.body.id);
    expect(mine).toMatchObject({ url: body.url, secret_hint: r.body.secret_hint });
    expect(list.raw).not.toContain(r.body.secret);
    const patched = await w.userCall('PATCH', `/users/webhooks/${r.body.id}`, mAdmin, { is_active: false });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ is_active: false });
    expect(patched.raw).not.toContain(r.body.secret);
  });

  it.each([
    ['plain http outside development', 'http://8.8.8.8/hooks', M.httpsOnly],
    ['another scheme', 'ftp://8.8.8.8/hooks', M.httpsOnly],
    ['not a URL', 'hooks.example.com/x', M.badUrl],
    ['credentials in the URL', 'https://user:pw@8.8.8.8/hooks', M.credentials],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data', M.linkLocal],
    ['an IPv6 link-local address', 'https://[fe80::1]/hooks', M.linkLocal],
    ['loopback', 'https://127.0.0.1:8443/hooks', M.privateAddress],
    ['a host name resolving to loopback', 'https://localhost/hooks', M.privateAddress],
    ['a private network', 'https://10.1.2.3/hooks', M.privateAddress],
    ['IPv6 loopback', 'https://[::1]/hooks', M.privateAddress],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hooks', M.privateAddress],
    ['an unresolvable host', 'https://no-such-host.invalid/hooks', M.unresolvable],
  ])('refuses %s naming the url field', async (_n, url, message) => {
    const r = await w.userCall('POST', '/users/webhooks', mAdmin, { ...body, url });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
    expect(r.body.data.fields).toEqual([{ field: 'url', message }]);
  });

  it('refuses a changed URL that is not allowed, and bad events by schema', async () => {
    const made = await w.userCall('POST', '/users/webhooks', mAdmin, body);
    const r = await w.userCall('PATCH', `/users/webhooks/${made.body.id}`, mAdmin, {
      url: 'https://169.254.169.254/',
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(M.linkLocal);
    for (const events of [[], ['NOT_AN_EVENT'], ['CASE_CREATED', 'CASE_CREATED']]) {
      expect((await w.userCall('POST', '/users/webhooks', mAdmin, { ...body, events })).status).toBe(400);
    }
    expect((await w.userCall('PATCH', `/users/webhooks/${made.body.id}`, mAdmin, {})).status).toBe(400);
    expect((await w.userCall('POST', '/users/webhooks', mAdmin, { ...body, secret: 'mine' })).status).toBe(
      400,
    );
  });

  it('caps the endpoints of a merchant', async () => {
    const count = async () =>
      (await w.userCall('GET', '/users/webhooks?limit=0', a2Admin)).body.pagination.total as number;
    while ((await count()) < WEBHOOK_MAX_ENDPOINTS)
      expect((await w.userCall('POST', '/users/webhooks', a2Admin, body)).status).toBe(201);
    const r = await w.userCall('POST', '/users/webhooks', a2Admin, body);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(M.tooMany);
  });
});

describe('who manages endpoints', () => {
  it('allows merchant and partner admins only', async () => {
    for (const username of ['merchant.user', 'partner.user', 'admin', 'manager']) {
      const ctx = demoCtx('acme', username);
      const r = await w.userCall('POST', '/users/webhooks', ctx, body);
      expect(r.status, username).toBe(403);
      expect(r.body.message).toBe(M.notAllowed);
      expect((await w.userCall('GET', '/users/webhooks', ctx)).status).toBe(403);
    }
    expect((await w.userCall('POST', '/users/webhooks', pAdmin, body)).status).toBe(201);
    expect((await w.userCall('GET', '/users/webhooks', { tenant: 'acme', kind: 'system' })).status).toBe(403);
  });

  it('lets a read-only admin look but not change', async () => {
    const made = await w.userCall('POST', '/users/webhooks', mAdmin, body);
    expect((await w.userCall('GET', '/users/webhooks', readonly)).status).toBe(200);
    expect((await w.userCall('GET', `/users/webhooks/${made.body.id}/deliveries`, readonly)).status).toBe(
      200,
    );
    for (const [method, url, payload] of [
      ['POST', '/users/webhooks', body],
      ['PATCH', `/users/webhooks/${made.body.id}`, { is_active: false }],
      ['DELETE', `/users/webhooks/${made.body.id}`, undefined],
    ] as const) {
      const r = await w.userCall(method, url, readonly, payload);
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.body.message).toBe('Read-only users cannot change data.');
    }
    // An impersonated session marked read-only is refused the same way.
    expect((await w.userCall('POST', '/users/webhooks', { ...mAdmin, read_only: true }, body)).status).toBe(
      403,
    );
    const still = await w.t.db.query(
      'select is_active, deleted_at from users.webhook_endpoints where id = $1',
      [made.body.id],
    );
    expect(still.rows[0]).toEqual({ is_active: true, deleted_at: null });
  });

  it("keeps each merchant's endpoints to its own admins and each tenant to itself", async () => {
    const made = await w.userCall('POST', '/users/webhooks', mAdmin, body);
    const id = made.body.id as number;
    for (const other of [a2Admin, pAdmin]) {
      const list = await w.userCall('GET', '/users/webhooks?limit=200', other);
      expect(list.body.data.map((e: { id: number }) => e.id)).not.toContain(id);
      expect((await w.userCall('PATCH', `/users/webhooks/${id}`, other, { is_active: false })).status).toBe(
        404,
      );
      expect((await w.userCall('DELETE', `/users/webhooks/${id}`, other)).status).toBe(404);
      expect((await w.userCall('GET', `/users/webhooks/${id}/deliveries`, other)).status).toBe(404);
    }
    // The same user id in another tenant sees nothing of acme's.
    const nbMerchantAdmin = demoCtx('northbank', 'merchant.admin');
    const nbList = await w.userCall('GET', '/users/webhooks?limit=200', nbMerchantAdmin);
    expect(nbList.status).toBe(200);
    expect(nbList.body.data).toEqual([]);
    expect((await w.userCall('DELETE', `/users/webhooks/${id}`, nbMerchantAdmin)).status).toBe(404);

    const deleted = await w.userCall('DELETE', `/users/webhooks/${id}`, mAdmin);
    expect(deleted.body).toEqual({ message: M.deleted });
    expect((await w.userCall('GET', `/users/webhooks/${id}/deliveries`, mAdmin)).status).toBe(404);
    expect((await w.userCall('DELETE', `/users/webhooks/${id}`, mAdmin)).body.message).toBe(M.notFound);
  });
});

describe('network policy', () => {
  const resolveTo =
    (address: string, family = 4) =>
    () =>
      Promise.resolve([{ address, family }]);
  const dev = { development: true, allowed: parseAllowedNetworks('') };
  const prod = { development: false, allowed: parseAllowedNetworks('10.20.0.0/16, 192.168.1.5') };

  it('allows plain http, loopback and private networks in development, never link-local', async () => {
    await expect(checkTarget(dev, 'http://127.0.0.1:3000/x')).resolves.toMatchObject({
      address: '127.0.0.1',
    });
    await expect(checkTarget(dev, 'http://hooks.test/x', resolveTo('10.0.0.9'))).resolves.toMatchObject({
      address: '10.0.0.9',
    });
    await expect(checkTarget(dev, 'http://169.254.169.254/')).rejects.toThrow(M.linkLocal);
    await expect(checkTarget(dev, 'https://meta.test/', resolveTo('169.254.169.254'))).rejects.toThrow(
      M.linkLocal,
    );
  });

  it('allows only allow-listed private networks outside development (http to them too)', async () => {
    await expect(checkTarget(prod, 'http://10.20.3.4/x')).resolves.toMatchObject({ address: '10.20.3.4' });
    await expect(checkTarget(prod, 'https://192.168.1.5/x')).resolves.toMatchObject({
      address: '192.168.1.5',
    });
    await expect(checkTarget(prod, 'https://192.168.1.6/x')).rejects.toThrow(M.privateAddress);
    await expect(checkTarget(prod, 'https://10.21.0.1/x')).rejects.toThrow(M.privateAddress);
    // One bad answer among several refuses the host (a rotating resolver).
    const mixed = () =>
      Promise.resolve([
        { address: '8.8.4.4', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]);
    await expect(checkTarget(prod, 'https://rotating.test/', mixed)).rejects.toThrow(M.privateAddress);
    expect(() => parseAllowedNetworks('10.0.0.0/33')).toThrow(/not an address or CIDR/);
    expect(() => parseAllowedNetworks('example.com')).toThrow(/not an address or CIDR/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, WEBHOOK_MESSAGES as M } from '@portal/contracts';
import { JobError } from '@portal/jobs';
import { deliverOnce } from '../../../services/user/src/webhooks/delivery-jobs';
import { sealSecret } from '../../../services/user/src/webhooks/signing';
import { parseAllowedNetworks } from '../../../services/user/src/webhooks/ssrf';
import { ACME, demoCtx } from '../case/case-app';
import { TestReceiver } from './receiver';
import { startWebhookWorld, type WebhookWorld } from './support';

/**
 * Issue 27 part B: IPv6 transition forms (NAT64, IPv4-mapped/-translated/-compatible), documentation
 * ranges and odd IPv4 spellings are refused at registration and again at delivery time.
 */
let w: WebhookWorld;
const rx = new TestReceiver();
let port: string;
const mAdmin = demoCtx('acme', 'merchant.admin');
const body = { events: ['CASE_STATUS_CHANGED'], description: 'ERP' };

beforeAll(async () => {
  // No allow-list: as in production.
  w = await startWebhookWorld({ WEBHOOK_ALLOWED_NETWORKS: '' });
  port = new URL(await rx.start('127.0.0.1')).port;
});
afterAll(async () => {
  await rx.close();
  await w?.close();
});

const register = (url: string) => w.userCall('POST', '/users/webhooks', mAdmin, { ...body, url });

describe('registering an endpoint by address', () => {
  it.each([
    ['NAT64 of 127.0.0.1', 'https://[64:ff9b::7f00:1]/h', M.privateAddress],
    ['NAT64 of the metadata address', 'https://[64:ff9b::a9fe:a9fe]/latest/meta-data/', M.linkLocal],
    ['IPv4-translated 127.0.0.1', 'https://[::ffff:0:7f00:1]/h', M.privateAddress],
    ['IPv4-compatible 127.0.0.1', 'https://[::127.0.0.1]/h', M.privateAddress],
    ['IPv6 documentation', 'https://[2001:db8::1]/h', M.privateAddress],
    ['NAT64 of a private network', 'https://[64:ff9b::10.0.0.1]/h', M.privateAddress],
    ['local-use NAT64', 'https://[64:ff9b:1::808:808]/h', M.privateAddress],
    ['6to4 of 127.0.0.1', 'https://[2002:7f00:1::1]/h', M.privateAddress],
    ['Teredo', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/h', M.privateAddress],
    ['IPv6 documentation 3fff::/20', 'https://[3fff::1]/h', M.privateAddress],
    ['discard-only 100::/64', 'https://[100::1]/h', M.privateAddress],
    ['IPv4 documentation', 'https://192.0.2.10/h', M.privateAddress],
    ['IPv4 benchmarking', 'https://198.18.0.1/h', M.privateAddress],
    ['CGNAT', 'https://100.64.0.1/h', M.privateAddress],
    ['decimal 127.0.0.1', 'https://2130706433/h', M.privateAddress],
    ['octal 127.0.0.1', 'https://0177.0.0.1/h', M.privateAddress],
    ['hex 127.0.0.1', 'https://0x7f.0.0.1/h', M.privateAddress],
    ['decimal metadata address', 'https://2852039166/latest/meta-data/', M.linkLocal],
  ])('refuses %s naming the url field', async (_n, url, message) => {
    const r = await register(url);
    expect(r.status, r.raw).toBe(400);
    expect(r.body.message).toBe(message);
    expect(r.body.data.fields).toEqual([{ field: 'url', message }]);
  });

  it('refuses the same addresses when an endpoint is changed to them', async () => {
    const made = await register('https://[2606:4700::1111]/h');
    expect(made.status, made.raw).toBe(201);
    for (const url of ['https://[64:ff9b::7f00:1]/h', 'https://[::127.0.0.1]/h']) {
      const r = await w.userCall('PATCH', `/users/webhooks/${made.body.id}`, mAdmin, { url });
      expect(r.status, url).toBe(400);
      expect(r.body.message).toBe(M.privateAddress);
    }
  });

  it.each([
    ['a public IPv4 address', 'https://8.8.8.8/hooks', 'https://8.8.8.8/hooks'],
    ['a public IPv6 address', 'https://[2606:4700::1111]/hooks', 'https://[2606:4700::1111]/hooks'],
    [
      'a public IPv4 address behind NAT64 (DNS64)',
      'https://[64:ff9b::8.8.8.8]/h',
      'https://[64:ff9b::808:808]/h',
    ],
    ['a public IPv4 address spelt in decimal', 'https://134744072/hooks', 'https://8.8.8.8/hooks'],
  ])('still registers %s', async (_n, url, stored) => {
    const r = await register(url);
    expect(r.status, r.raw).toBe(201);
    expect(r.body.url).toBe(stored);
  });
});

describe('the address at delivery time', () => {
  // The receiver's loopback network allow-listed, as an operator would for an internal receiver:
  // its transition forms stay refused all the same.
  const policy = { development: false, allowed: parseAllowedNetworks('127.0.0.0/8') };

  async function delivery(url: string): Promise<number> {
    const e = await w.t.db.query<{ id: string }>(
      `insert into users.webhook_endpoints (tenant, merchant_id, url, events, secret_enc, secret_hint)
       values ('acme', $1, $2, '{CASE_CREATED}', $3, 'abcd') returning id`,
      [demoMerchantId(ACME, 'merchantA1'), url, sealSecret(w.t.deps.contextSecret, 'whsec_test')],
    );
    const eventId = crypto.randomUUID();
    const d = await w.t.db.query<{ id: string }>(
      `insert into users.webhook_deliveries (tenant, endpoint_id, event_id, event_type, payload)
       values ('acme', $1, $2, 'CASE_CREATED', $3) returning id`,
      [e.rows[0]!.id, eventId, JSON.stringify({ id: eventId, type: 'CASE_CREATED', data: {} })],
    );
    return Number(d.rows[0]!.id);
  }

  it.each([
    ['NAT64 of loopback', '64:ff9b::7f00:1', M.privateAddress],
    ['NAT64 of the metadata address', '64:ff9b::a9fe:a9fe', M.linkLocal],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1', M.privateAddress],
    ['IPv4-translated loopback', '::ffff:0:7f00:1', M.privateAddress],
    ['IPv4-compatible loopback', '::127.0.0.1', M.privateAddress],
    ['IPv6 documentation', '2001:db8::1', M.privateAddress],
  ])('refuses a host name that now resolves to %s, sending nothing', async (_n, address, message) => {
    const id = await delivery(`http://hooks.rebind.test:${port}/x`);
    const error = await deliverOnce(w.t.db, 'acme', id, {
      contextSecret: w.t.deps.contextSecret,
      policy,
      lastAttempt: false,
      resolve: () => Promise.resolve([{ address, family: 6 }]),
      timeoutMs: 2000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobError);
    expect(error).toMatchObject({ message, permanent: true });
    const row = await w.t.db.query(
      'select state, attempts, last_error from users.webhook_deliveries where id = $1',
      [id],
    );
    expect(row.rows[0]).toEqual({ state: 'failed', attempts: 1, last_error: message });
    expect(rx.received).toHaveLength(0);
  });

  it('refuses a stored literal transition address', async () => {
    const id = await delivery(`https://[64:ff9b::7f00:1]:${port}/x`);
    await expect(
      deliverOnce(w.t.db, 'acme', id, {
        contextSecret: w.t.deps.contextSecret,
        policy,
        lastAttempt: false,
        timeoutMs: 2000,
      }),
    ).rejects.toThrow(M.privateAddress);
    expect(rx.received).toHaveLength(0);
  });
});

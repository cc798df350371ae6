import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, WEBHOOK_MESSAGES as M } from '@portal/contracts';
import { JobError } from '@portal/jobs';
import { deliverOnce, type DeliverySettings } from '../../../services/user/src/webhooks/delivery-jobs';
import { postToTarget, RESPONSE_BYTES } from '../../../services/user/src/webhooks/post';
import { sealSecret } from '../../../services/user/src/webhooks/signing';
import { parseAllowedNetworks } from '../../../services/user/src/webhooks/ssrf';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { ACME } from '../case/case-app';
import { TestReceiver } from './receiver';

/** One delivery attempt against hostile receivers and resolvers: checked at delivery time, bounded, no redirects. */
let t: TestEnv;
const rx = new TestReceiver();
const other = new TestReceiver();
let port: string;
const loopbackAllowed = { development: false, allowed: parseAllowedNetworks('127.0.0.0/8') };
const production = { development: false, allowed: parseAllowedNetworks('') };

beforeAll(async () => {
  t = await createTestEnv();
  port = new URL(await rx.start('127.0.0.1')).port;
  await other.start('127.0.0.1');
});
afterAll(async () => {
  await rx.close();
  await other.close();
  await t?.close();
});
function settings(extra: Partial<DeliverySettings> = {}): DeliverySettings {
  return { contextSecret: t.deps.contextSecret, policy: loopbackAllowed, lastAttempt: false, ...extra };
}

/** An endpoint with the given URL (stored as registration would have) and one queued delivery to it. */
async function delivery(url: string): Promise<number> {
  const e = await t.db.query<{ id: string }>(
    `insert into users.webhook_endpoints (tenant, merchant_id, url, events, secret_enc, secret_hint)
     values ('acme', $1, $2, '{CASE_CREATED}', $3, 'abcd') returning id`,
    [demoMerchantId(ACME, 'merchantA1'), url, sealSecret(t.deps.contextSecret, 'whsec_test')],
  );
  const eventId = crypto.randomUUID();
  const payload = { id: eventId, type: 'CASE_CREATED', data: { case_id: 1 } };
  const d = await t.db.query<{ id: string }>(
    `insert into users.webhook_deliveries (tenant, endpoint_id, event_id, event_type, payload)
     values ('acme', $1, $2, 'CASE_CREATED', $3) returning id`,
    [e.rows[0]!.id, eventId, JSON.stringify(payload)],
  );
  return Number(d.rows[0]!.id);
}
const row = async (id: number) =>
  (
    await t.db.query<{
      state: string;
      attempts: number;
      response_code: number | null;
      last_error: string | null;
    }>('select state, attempts, response_code, last_error from users.webhook_deliveries where id = $1', [id])
  ).rows[0]!;
const answering =
  (address: string, calls: string[] = []) =>
  (host: string) => {
    calls.push(host);
    return Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }]);
  };

describe('the address at delivery time', () => {
  it('refuses a host that now resolves to the metadata address (DNS rebinding), sending nothing', async () => {
    const id = await delivery(`http://hooks.rebind.test:${port}/x`);
    const error = await deliverOnce(
      t.db,
      'acme',
      id,
      settings({ resolve: answering('169.254.169.254') }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobError);
    expect(error).toMatchObject({ message: M.linkLocal, permanent: true });
    expect(await row(id)).toEqual({
      state: 'failed',
      attempts: 1,
      response_code: null,
      last_error: M.linkLocal,
    });
    expect(rx.received).toHaveLength(0);
  });

  it('refuses a private answer outside development and loopback without the allow-list', async () => {
    const privateId = await delivery(`https://hooks.rebind.test/x`);
    await expect(
      deliverOnce(t.db, 'acme', privateId, settings({ policy: production, resolve: answering('10.0.0.7') })),
    ).rejects.toThrow(M.privateAddress);
    const loopbackId = await delivery(`https://127.0.0.1:${port}/x`);
    await expect(deliverOnce(t.db, 'acme', loopbackId, settings({ policy: production }))).rejects.toThrow(
      M.privateAddress,
    );
    expect((await row(loopbackId)).state).toBe('failed');
    expect(rx.received).toHaveLength(0);
  });

  it('connects to the address it checked, with one lookup', async () => {
    const calls: string[] = [];
    const id = await delivery(`http://hooks.rebind.test:${port}/pinned`);
    await deliverOnce(t.db, 'acme', id, settings({ resolve: answering('127.0.0.1', calls) }));
    expect(calls).toEqual(['hooks.rebind.test']);
    const [got] = await rx.waitFor(1);
    expect(got!.path).toBe('/pinned');
    expect(got!.headers.host).toBe(`hooks.rebind.test:${port}`);
    expect(await row(id)).toMatchObject({ state: 'succeeded', attempts: 1, response_code: 200 });
  });
});

describe('the answer', () => {
  it('does not follow a redirect: the 3xx is a failed attempt', async () => {
    rx.respond = (_req, res) => {
      res.writeHead(307, { location: `${other.url}/stolen` }).end();
    };
    const id = await delivery(`http://127.0.0.1:${port}/moved`);
    await expect(deliverOnce(t.db, 'acme', id, settings())).rejects.toThrow('The endpoint answered 307.');
    expect(await row(id)).toMatchObject({ state: 'retrying', response_code: 307, attempts: 1 });
    expect(other.received).toHaveLength(0);
  });

  it('reads only the first bytes of an endless answer', async () => {
    let sent = 0;
    rx.respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (!res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) break;
        }
      };
      res.on('drain', pump);
      pump();
    };
    const started = Date.now();
    const result = await postToTarget(
      { url: new URL(`http://127.0.0.1:${port}/endless`), address: '127.0.0.1', family: 4 },
      {},
      '{}',
      5000,
    );
    expect(result).toMatchObject({ status: 200, error: null });
    expect(result.body.length).toBe(RESPONSE_BYTES);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(sent).toBeGreaterThan(RESPONSE_BYTES);

    const id = await delivery(`http://127.0.0.1:${port}/endless`);
    await deliverOnce(t.db, 'acme', id, settings());
    expect(await row(id)).toMatchObject({ state: 'succeeded', response_code: 200 });
  });

  it('gives up on a receiver that does not answer within the timeout; the last attempt fails for good', async () => {
    rx.respond = () => undefined; // never answers
    const id = await delivery(`http://127.0.0.1:${port}/silent`);
    const started = Date.now();
    await expect(deliverOnce(t.db, 'acme', id, settings({ timeoutMs: 500 }))).rejects.toThrow(
      'No answer within 0.5 s',
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await row(id)).toMatchObject({
      state: 'retrying',
      response_code: null,
      last_error: 'No answer within 0.5 s',
    });
    await expect(
      deliverOnce(t.db, 'acme', id, settings({ timeoutMs: 300, lastAttempt: true })),
    ).rejects.toThrow();
    expect(await row(id)).toMatchObject({ state: 'failed', attempts: 2 });
  });

  it('sends nothing for a disabled endpoint', async () => {
    rx.respond = undefined;
    const before = rx.received.length;
    const id = await delivery(`http://127.0.0.1:${port}/off`);
    await t.db.query(
      'update users.webhook_endpoints set is_active = false where id = (select endpoint_id from users.webhook_deliveries where id = $1)',
      [id],
    );
    await expect(deliverOnce(t.db, 'acme', id, settings())).rejects.toMatchObject({ permanent: true });
    expect(rx.received.length).toBe(before);
    expect((await row(id)).state).toBe('failed');
  });
});

/**
 * Live updates (issue 21): two gateway instances on one real Redis, a real
 * job worker publishing elsewhere, the real event dispatcher. A user on
 * instance 2 hears a job's progress; another tenant, a merchant outside the
 * event's merchant subtree, a user outside its MIDs and a non-creator hear
 * nothing; no token is 401; heartbeats; token expiry ends the stream; the
 * per-user cap holds across both instances.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TENANTS, demoMerchantId, LIVE_TOO_MANY_CONNECTIONS, type LiveMessage } from '@portal/contracts';
import { RedisCache } from '@portal/core';
import { buildGateway } from '@portal/gateway';
import { defineJob, emitEvent, enqueue, JobWorker, livePublisher, migrateJobs, Type } from '@portal/jobs';
import { eventDispatchJob } from '../../../services/user/src/webhooks/delivery-jobs';
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

const ACME = DEMO_TENANTS[0]!;
const A1 = demoMerchantId(ACME, 'merchantA1');
const A2 = demoMerchantId(ACME, 'merchantA2');
const PARTNER_A = demoMerchantId(ACME, 'partnerA');

// Users of the fake user service (ids are only keys of its profile table).
const CREATOR = 2100001; // merchant admin of merchantA1, starts the job
const PARTNER = 2100002; // partner admin of partnerA (above merchantA1)
const OTHER_MERCHANT = 2100003; // merchant admin of merchantA2 (a sibling)
const MID_LIMITED = 2100004; // merchantA1, limited to a MID that is not the case's
const STAFF = 2100005; // cb911_manager
const NORTHBANK = 2100006; // a user of the other tenant
const CAPPED = 2100007; // for the connection cap
const ADMIN = 2100008; // cb911_admin, acting as others ('Login As')

const signer = ed25519Signer();
let t: TestEnv;
let user: FakeUserService;
let echo: FakeEchoService;
const caches: RedisCache[] = [];
const gateways: Array<Awaited<ReturnType<typeof buildGateway>>> = [];
const ports: number[] = [];
let worker: JobWorker;
const log = () => t.deps.log;

/** A job that reports progress in steps, so a stream can see it running. */
const probeJob = defineJob({
  name: 'test.live-probe',
  schema: Type.Object({ steps: Type.Integer() }),
  retryLimit: 0,
  handler: async (ctx) => {
    for (let i = 1; i <= ctx.data.steps; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await ctx.progress((i * 100) / ctx.data.steps, `Step ${i} of ${ctx.data.steps}`);
    }
    return { steps: ctx.data.steps };
  },
});

interface Stream {
  status: number;
  body: string;
  messages: LiveMessage[];
  events: Array<{ event: string; data: unknown }>;
  comments: string[];
  ended: Promise<void>;
  close(): void;
}

/** Opens GET /api/live on a gateway and parses the Server-Sent Events as they arrive. */
function openStream(port: number, headers: Record<string, string>): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/api/live', headers },
      (res: IncomingMessage) => {
        let buffer = '';
        let endedResolve: () => void = () => undefined;
        const stream: Stream = {
          status: res.statusCode ?? 0,
          body: '',
          messages: [],
          events: [],
          comments: [],
          ended: new Promise<void>((r) => (endedResolve = r)),
          close: () => req.destroy(),
        };
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          stream.body += chunk;
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let name = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
              else if (line.startsWith('event:')) name = line.slice(6).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).trim());
            }
            if (!data.length) continue;
            const parsed: unknown = JSON.parse(data.join('\n'));
            if (name === 'message') stream.messages.push(parsed as LiveMessage);
            else stream.events.push({ event: name, data: parsed });
          }
        });
        res.on('end', () => endedResolve());
        res.on('close', () => endedResolve());
        resolve(stream);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const headersFor = (id: number, tenant = 'acme', ttl = 900) => ({
  host: `${tenant}.localhost`,
  authorization: `Bearer ${signer.token(claimsFor(id, tenant, 'chargeback-portal', ttl))}`,
});

/** A stream that has said `ready` (its tenant subscription is in place). */
async function connected(
  port: number,
  id: number,
  tenant = 'acme',
  ttl = 900,
  extra: Record<string, string> = {},
): Promise<Stream> {
  const s = await openStream(port, { ...headersFor(id, tenant, ttl), ...extra });
  expect(s.status, s.body).toBe(200);
  await expect.poll(() => s.events.some((e) => e.event === 'ready'), { timeout: 5000 }).toBe(true);
  return s;
}

const open: Stream[] = [];
async function listen(port: number, id: number, tenant = 'acme', extra: Record<string, string> = {}) {
  const s = await connected(port, id, tenant, 900, extra);
  open.push(s);
  return s;
}

beforeAll(async () => {
  t = await createTestEnv();
  user = await fakeUserService(t.deps.contextSecret, signer);
  echo = await fakeEchoService(t.deps.contextSecret, 'case');
  const merchant = (id: number) => ({ id, business_name: `Merchant ${id}`, show_alerts_banner: false });
  user.profiles.set(`acme:${CREATOR}`, profile(CREATOR, { merchant: merchant(A1) }));
  user.profiles.set(
    `acme:${PARTNER}`,
    profile(PARTNER, { role: 'partner_admin', roles: ['partner_admin'], merchant: merchant(PARTNER_A) }),
  );
  user.profiles.set(`acme:${OTHER_MERCHANT}`, profile(OTHER_MERCHANT, { merchant: merchant(A2) }));
  user.profiles.set(
    `acme:${MID_LIMITED}`,
    profile(MID_LIMITED, { merchant: merchant(A1), mids_allowed: ['no-such-mid'] }),
  );
  user.profiles.set(
    `acme:${STAFF}`,
    profile(STAFF, { role: 'cb911_manager', roles: ['cb911_manager'], merchant: merchant(PARTNER_A) }),
  );
  user.profiles.set(
    `northbank:${NORTHBANK}`,
    profile(NORTHBANK, { role: 'cb911_admin', roles: ['cb911_admin'] }),
  );
  user.profiles.set(`acme:${CAPPED}`, profile(CAPPED, { merchant: merchant(A1) }));
  user.profiles.set(
    `acme:${ADMIN}`,
    profile(ADMIN, { role: 'cb911_admin', roles: ['cb911_admin'], merchant: merchant(PARTNER_A) }),
  );

  // Two gateway instances, each with its own Redis connections, on the same Redis and key prefix.
  for (let i = 0; i < 2; i++) {
    const cache = new RedisCache({ url: t.redisUrl, keyPrefix: t.redisPrefix, log: log() });
    await cache.ready(5000);
    caches.push(cache);
    const gateway = await buildGateway(
      {
        env: t.env,
        cache,
        log: log(),
        contextSecret: t.deps.contextSecret,
        upstreams: { case: echo.url, user: user.url, docs: echo.url, builder: echo.url },
      },
      { watchTenants: false },
    );
    gateways.push(gateway);
    await gateway.listen({ port: 0, host: '127.0.0.1' });
    ports.push((gateway.server.address() as { port: number }).port);
  }

  // The worker: elsewhere, with its own Redis connection.
  const workerCache = new RedisCache({ url: t.redisUrl, keyPrefix: t.redisPrefix, log: log() });
  await workerCache.ready(5000);
  caches.push(workerCache);
  await migrateJobs(t.db, [probeJob], log());
  worker = new JobWorker({
    db: t.db,
    log: log(),
    jobs: [probeJob, eventDispatchJob],
    live: livePublisher(workerCache, log()),
    pollingIntervalSeconds: 0.5,
  });
  await worker.start();
});

afterAll(async () => {
  for (const s of open) s.close();
  await worker?.stop(1);
  for (const g of gateways) await g.close();
  for (const c of caches) await c.close();
  await Promise.all([user?.close(), echo?.close()]);
  await t?.close();
});

describe('GET /api/live', () => {
  it('refuses a call without a token (401) and with a token of another tenant (401)', async () => {
    const none = await openStream(ports[0]!, { host: 'acme.localhost' });
    expect(none.status).toBe(401);
    const wrong = await openStream(ports[0]!, {
      host: 'acme.localhost',
      authorization: headersFor(NORTHBANK, 'northbank').authorization,
    });
    expect(wrong.status).toBe(401);
    await Promise.all([none.ended, wrong.ended]);
  });

  it("streams a job's progress to its creator on another instance, and to staff, not to others", async () => {
    const creator = await listen(ports[1]!, CREATOR);
    const staff = await listen(ports[0]!, STAFF);
    const other = await listen(ports[0]!, OTHER_MERCHANT);
    const otherTenant = await listen(ports[1]!, NORTHBANK, 'northbank');
    // 'Login As': an impersonated session hears the impersonated user's stream, not the admin's.
    const asCreator = await listen(ports[0]!, ADMIN, 'acme', { 'x-impersonate-user-id': String(CREATOR) });
    const asOther = await listen(ports[1]!, ADMIN, 'acme', {
      'x-impersonate-user-id': String(OTHER_MERCHANT),
    });

    const { id } = await t.db.transaction((tx) =>
      enqueue(tx, probeJob, { steps: 4 }, { tenant: 'acme', createdBy: CREATOR }),
    );
    const ofJob = (s: Stream) => s.messages.filter((m) => m.kind === 'job' && m.id === id);
    await expect
      .poll(() => ofJob(creator).some((m) => m.kind === 'job' && m.state === 'done'), { timeout: 15_000 })
      .toBe(true);
    const seen = ofJob(creator);
    expect(seen[0]).toMatchObject({
      kind: 'job',
      id,
      job_kind: 'test.live-probe',
      state: 'running',
      created_by: CREATOR,
    });
    expect(seen).toContainEqual(
      expect.objectContaining({ state: 'running', progress: 50, message: 'Step 2 of 4' }),
    );
    expect(seen.at(-1)).toMatchObject({ state: 'done', progress: 100 });
    await expect.poll(() => ofJob(staff).length, { timeout: 5000 }).toBe(seen.length);
    await expect.poll(() => ofJob(asCreator).length, { timeout: 5000 }).toBe(seen.length);
    expect(other.messages).toEqual([]);
    expect(asOther.messages).toEqual([]);
    expect(otherTenant.messages).toEqual([]);
  });

  it('streams a committed domain event only inside the merchant subtree and MID scope', async () => {
    const { rows } = await t.db.query<{ id: string }>(
      `select id from cases.cases where tenant_id = 'acme' and merchant_id = $1 order by id limit 1`,
      [A1],
    );
    const caseId = Number(rows[0]!.id);
    const partner = await listen(ports[0]!, PARTNER);
    const owner = await listen(ports[1]!, CREATOR);
    const sibling = await listen(ports[1]!, OTHER_MERCHANT);
    const midLimited = await listen(ports[0]!, MID_LIMITED);
    const staff = await listen(ports[1]!, STAFF);
    const otherTenant = await listen(ports[0]!, NORTHBANK, 'northbank');
    const events = (s: Stream) => s.messages.filter((m) => m.kind === 'event');

    // Rolled back: never published.
    await expect(
      t.db.transaction(async (tx) => {
        await emitEvent(tx, 'acme', {
          type: 'CASE_STATUS_CHANGED',
          merchant_id: A1,
          data: { case_id: caseId, previous_status: 'New', status: 'Rolled Back' },
        });
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    await t.db.transaction((tx) =>
      emitEvent(tx, 'acme', {
        type: 'CASE_STATUS_CHANGED',
        merchant_id: A1,
        data: { case_id: caseId, previous_status: 'New', status: 'DocCompiling' },
      }),
    );
    const expected = {
      kind: 'event',
      type: 'CASE_STATUS_CHANGED',
      merchant_id: A1,
      case_id: caseId,
      previous_status: 'New',
      status: 'DocCompiling',
    };
    await expect.poll(() => events(owner), { timeout: 15_000 }).toEqual([expected]);
    await expect.poll(() => events(partner), { timeout: 5000 }).toEqual([expected]);
    await expect.poll(() => events(staff), { timeout: 5000 }).toEqual([expected]);
    // The filtering data (hierarchy, MID) stays in the gateway.
    expect(owner.body).not.toContain('merchant_path');
    expect(events(sibling)).toEqual([]);
    expect(events(midLimited)).toEqual([]);
    expect(otherTenant.messages).toEqual([]);
  });

  it('holds at most 5 streams per user over both instances (429), and frees a slot on close', async () => {
    const streams: Stream[] = [];
    for (let i = 0; i < 5; i++) streams.push(await connected(ports[i % 2]!, CAPPED));
    open.push(...streams);
    for (const port of ports) {
      const refused = await openStream(port, headersFor(CAPPED));
      await refused.ended;
      expect(refused.status).toBe(429);
      expect((JSON.parse(refused.body) as { message: string }).message).toBe(LIVE_TOO_MANY_CONNECTIONS);
    }
    streams[0]!.close();
    await expect
      .poll(
        async () => {
          const s = await openStream(ports[1]!, headersFor(CAPPED));
          if (s.status === 200) open.push(s);
          else s.close();
          return s.status;
        },
        { timeout: 5000, interval: 200 },
      )
      .toBe(200);
  });

  it('ends the stream when the access token expires', async () => {
    const s = await connected(ports[0]!, PARTNER, 'acme', 2);
    open.push(s);
    await s.ended;
    expect(s.events.at(-1)).toEqual({ event: 'end', data: { reason: 'expired' } });
  });

  it('sends a heartbeat comment every 15 seconds', { timeout: 25_000 }, async () => {
    const s = await listen(ports[1]!, STAFF);
    await expect.poll(() => s.comments, { timeout: 17_000, interval: 500 }).toContain('ping');
  });
});

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StripeSdk, STRIPE_API_VERSION } from '../../packages/connectors/src/index';

type Dispute = StripeSdk.Dispute;
type Charge = StripeSdk.Charge;

/**
 * A local stand-in for the Stripe API (issue 32), started by a test: the
 * official SDK talks to it through its host/port/protocol options
 * (STRIPE_API_BASE). It answers with fixtures typed by the SDK's own
 * declarations, records and checks every request (method, path, form
 * parameters, Idempotency-Key, Stripe-Version, the key), replays an answer
 * for a repeated Idempotency-Key as Stripe does, and fails on demand (429,
 * 500, a timeout). Also usable by hand: `npx tsx tests/support/stripe-stand-in.ts`.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  idempotencyKey: string | null;
  stripeVersion: string | null;
  apiKey: string | null;
  /** Multipart uploads: the purpose and the file's size. */
  file?: { purpose: string; name: string; size: number; type: string };
  /** The status answered. */
  status: number;
}

/** A refusal Stripe answers (its error object): e.g. 403 permission, 400 with a code. */
export interface StripeRefusal {
  status: number;
  type?: string;
  code?: string;
  message: string;
  param?: string;
}

export type Failure = 429 | 500 | 'timeout' | StripeRefusal;

interface Account {
  id: string;
  name: string;
  /** A restricted key that may read disputes but not its account. */
  restricted: boolean;
}

export interface DisputeFixture {
  id?: string;
  amount?: number;
  currency?: string;
  reason?: string;
  status?: StripeSdk.Dispute.Status;
  brand?: string;
  last4?: string;
  networkReasonCode?: string | null;
  created?: number;
  dueBy?: number | null;
  isChargeRefundable?: boolean;
  descriptor?: string | null;
}

let seq = 0;
const nextId = (prefix: string) =>
  `${prefix}_${Date.now().toString(36)}${(++seq).toString(36).padStart(4, '0')}`;

/** A charge as `expand[]=data.charge` returns it: the fields a dispute's charge carries, typed by the SDK. */
export function chargeFixture(
  f: DisputeFixture,
  created: number,
): Partial<Charge> & Pick<Charge, 'id' | 'object'> {
  return {
    id: nextId('ch'),
    object: 'charge',
    amount: f.amount ?? 4999,
    currency: f.currency ?? 'usd',
    created: created - 5 * 86_400,
    calculated_statement_descriptor: f.descriptor ?? null,
    statement_descriptor: null,
    metadata: { order_id: 'ORD-STRIPE-1' },
    disputed: true,
    livemode: false,
    paid: true,
    payment_method_details: {
      type: 'card',
      card: {
        brand: f.brand ?? 'visa',
        last4: f.last4 ?? '4242',
        exp_month: 12,
        exp_year: 2030,
        fingerprint: 'fp_standin',
        funding: 'credit',
        network: f.brand ?? 'visa',
        country: 'US',
      } as StripeSdk.Charge.PaymentMethodDetails.Card,
    },
  };
}

/** A dispute, every field the SDK declares. */
export function disputeFixture(f: DisputeFixture = {}): Dispute {
  const created = f.created ?? Math.floor(Date.now() / 1000) - 3600;
  const charge = chargeFixture(f, created);
  const brand = f.brand ?? 'visa';
  return {
    id: f.id ?? nextId('dp'),
    object: 'dispute',
    amount: f.amount ?? 4999,
    balance_transactions: [],
    charge: charge as Charge,
    created,
    currency: f.currency ?? 'usd',
    enhanced_eligibility_types: [],
    evidence: {
      access_activity_log: null,
      billing_address: null,
      cancellation_policy: null,
      cancellation_policy_disclosure: null,
      cancellation_rebuttal: null,
      customer_communication: null,
      customer_email_address: null,
      customer_name: null,
      customer_purchase_ip: null,
      customer_signature: null,
      duplicate_charge_documentation: null,
      duplicate_charge_explanation: null,
      duplicate_charge_id: null,
      enhanced_evidence: {},
      product_description: null,
      receipt: null,
      refund_policy: null,
      refund_policy_disclosure: null,
      refund_refusal_explanation: null,
      service_date: null,
      service_documentation: null,
      shipping_address: null,
      shipping_carrier: null,
      shipping_date: null,
      shipping_documentation: null,
      shipping_tracking_number: null,
      uncategorized_file: null,
      uncategorized_text: null,
    },
    evidence_details: {
      due_by: f.dueBy === undefined ? created + 14 * 86_400 : f.dueBy,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: 'not_submitted',
    },
    intended_submission_method: null,
    is_charge_refundable: f.isChargeRefundable ?? false,
    livemode: false,
    metadata: {},
    network_reason_code: f.networkReasonCode ?? null,
    payment_intent: nextId('pi'),
    payment_method_details: {
      type: 'card',
      card: {
        brand,
        case_type: f.status?.startsWith('warning_') ? 'inquiry' : 'chargeback',
        network: brand,
        network_reason_code: f.networkReasonCode ?? null,
      },
    },
    reason: f.reason ?? 'fraudulent',
    status: f.status ?? 'needs_response',
  };
}

/** An event as Stripe posts it to a webhook endpoint, typed by the SDK. */
export function eventFixture(type: string, dispute: Dispute, created = Math.floor(Date.now() / 1000)) {
  const { charge, ...rest } = dispute;
  // Webhook payloads carry the charge's id, not the expanded charge.
  const object = { ...rest, charge: typeof charge === 'string' ? charge : charge.id };
  return {
    id: nextId('evt'),
    object: 'event' as const,
    api_version: STRIPE_API_VERSION,
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** Signs a payload as Stripe does (the SDK's own test helper). */
export function signEvent(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return new StripeSdk('sk_test_signer').webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

function stripeError(res: ServerResponse, status: number, type: string, message: string, extra = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': nextId('req') });
  res.end(JSON.stringify({ error: { type, message, ...extra } }));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The parts of a multipart/form-data body (name, filename, content type, bytes). */
function multipart(body: Buffer, contentType: string) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  const parts: Array<{ name: string; filename?: string; type?: string; data: Buffer }> = [];
  if (!boundary) return parts;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const part = body.subarray(start + delimiter.length + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString('utf8');
    const name = /name="([^"]+)"/.exec(head)?.[1] ?? '';
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1];
    parts.push({ name, filename, type, data: part.subarray(split + 4) });
    start = next;
  }
  return parts;
}

export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  readonly disputes = new Map<string, Dispute>();
  readonly files: Array<{ id: string; purpose: string; size: number }> = [];
  private readonly accounts = new Map<string, Account>();
  private readonly failures: Array<{ method: string; path: RegExp; failure: Failure }> = [];
  private readonly replays = new Map<string, { status: number; body: string }>();
  private server: Server | undefined;
  base = '';

  /** A key the stand-in accepts, for an account (restricted: may not read the account itself). */
  addKey(key: string, account: Partial<Account> = {}) {
    this.accounts.set(key, {
      id: account.id ?? nextId('acct'),
      name: account.name ?? 'Stand-in Store',
      restricted: account.restricted ?? false,
    });
    return this.accounts.get(key)!;
  }

  addDispute(f: DisputeFixture = {}): Dispute {
    const d = disputeFixture(f);
    this.disputes.set(d.id, d);
    return d;
  }

  /** The next requests matching method and path (with its query string) fail, one failure each, in order. */
  failNext(method: string, path: RegExp, ...failures: Failure[]) {
    for (const failure of failures) this.failures.push({ method, path, failure });
  }

  requestsTo(method: string, path: RegExp) {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        stripeError(res, 500, 'api_error', `stand-in failure: ${String(error)}`);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.base;
  }

  async close() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const body = await readBody(req);
    const contentType = String(req.headers['content-type'] ?? '');
    const header = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : null;
    };
    const auth = header('authorization');
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      form: contentType.startsWith('application/x-www-form-urlencoded')
        ? Object.fromEntries(new URLSearchParams(body.toString('utf8')))
        : {},
      idempotencyKey: header('idempotency-key'),
      stripeVersion: header('stripe-version'),
      apiKey: auth?.startsWith('Bearer ') ? auth.slice(7) : null,
      status: 0,
    };
    if (contentType.startsWith('multipart/form-data')) {
      const parts = multipart(body, contentType);
      const file = parts.find((p) => p.name === 'file');
      record.file = {
        purpose: parts.find((p) => p.name === 'purpose')?.data.toString('utf8') ?? '',
        name: file?.filename ?? '',
        size: file?.data.length ?? 0,
        type: file?.type ?? '',
      };
    }
    this.requests.push(record);
    const send = (status: number, payload: unknown) => {
      record.status = status;
      const text = JSON.stringify(payload);
      if (record.method === 'POST' && record.idempotencyKey && status < 500)
        this.replays.set(`${record.apiKey}\u0000${record.idempotencyKey}`, { status, body: text });
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': nextId('req') });
      res.end(text);
    };
    const fail = (status: number, type: string, message: string, extra = {}) => {
      record.status = status;
      stripeError(res, status, type, message, extra);
    };

    const target = `${record.path}${url.search}`;
    const i = this.failures.findIndex((f) => f.method === record.method && f.path.test(target));
    if (i !== -1) {
      const { failure } = this.failures.splice(i, 1)[0]!;
      if (failure === 'timeout') {
        record.status = -1;
        return; // never answered: the SDK's timeout fires
      }
      if (failure === 429)
        return fail(429, 'invalid_request_error', 'Too many requests', { code: 'rate_limit' });
      if (typeof failure === 'object')
        return fail(failure.status, failure.type ?? 'invalid_request_error', failure.message, {
          ...(failure.code ? { code: failure.code } : {}),
          ...(failure.param ? { param: failure.param } : {}),
        });
      return fail(500, 'api_error', 'Something went wrong on Stripe’s end.');
    }
    if (record.stripeVersion !== STRIPE_API_VERSION)
      return fail(400, 'invalid_request_error', `Unexpected Stripe-Version ${record.stripeVersion}`);
    const account = record.apiKey ? this.accounts.get(record.apiKey) : undefined;
    if (!account) return fail(401, 'invalid_request_error', 'Invalid API Key provided: ****');
    if (record.method === 'POST' && record.idempotencyKey) {
      const replay = this.replays.get(`${record.apiKey}\u0000${record.idempotencyKey}`);
      if (replay) {
        record.status = replay.status;
        res.writeHead(replay.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        return res.end(replay.body);
      }
    }

    const route = `${record.method} ${record.path}`;
    if (route === 'GET /v1/account') {
      if (account.restricted)
        return fail(403, 'invalid_request_error', 'The provided key does not have access to account', {
          code: 'secret_key_required',
        });
      return send(200, {
        id: account.id,
        object: 'account',
        business_profile: { name: account.name },
        settings: { dashboard: { display_name: account.name, timezone: 'Etc/UTC' } },
      });
    }
    if (route === 'GET /v1/disputes') return send(200, this.list(url.searchParams));
    const one = /^\/v1\/disputes\/([A-Za-z0-9_]+)$/.exec(record.path);
    if (one && record.method === 'GET') {
      const d = this.disputes.get(one[1]!);
      return d ? send(200, d) : fail(404, 'invalid_request_error', `No such dispute: '${one[1]}'`);
    }
    if (one && record.method === 'POST') {
      const d = this.disputes.get(one[1]!);
      if (!d) return fail(404, 'invalid_request_error', `No such dispute: '${one[1]}'`);
      if (d.status !== 'needs_response' && d.status !== 'warning_needs_response')
        return fail(400, 'invalid_request_error', 'This dispute is already closed or under review.');
      for (const [k, v] of Object.entries(record.form)) {
        const m = /^evidence\[([a-z_]+)\]$/.exec(k);
        if (m) (d.evidence as unknown as Record<string, string>)[m[1]!] = v;
      }
      d.evidence_details.has_evidence = true;
      if (record.form.submit === 'true') {
        d.status = d.status === 'warning_needs_response' ? 'warning_under_review' : 'under_review';
        d.evidence_details.submission_count += 1;
        d.evidence_details.submission_method = 'manual';
      }
      return send(200, d);
    }
    if (route === 'POST /v1/files') {
      if (record.file?.purpose !== 'dispute_evidence' || !record.file.size)
        return fail(400, 'invalid_request_error', 'A file and a valid purpose are required.');
      const file = { id: nextId('file'), purpose: record.file.purpose, size: record.file.size };
      this.files.push(file);
      return send(200, {
        ...file,
        object: 'file',
        created: Math.floor(Date.now() / 1000),
        filename: record.file.name,
        type: 'pdf',
        url: null,
        links: null,
        expires_at: null,
        title: null,
      });
    }
    return fail(404, 'invalid_request_error', `Unrecognized request URL (${route}).`);
  }

  /** GET /v1/disputes: created[gte], limit, starting_after, expand[]=data.charge; newest first, as Stripe. */
  private list(q: URLSearchParams) {
    const gte = Number(q.get('created[gte]') ?? 0);
    const limit = Math.min(100, Number(q.get('limit') ?? 10));
    const expand = [...q.entries()].some(([k, v]) => k.startsWith('expand') && v === 'data.charge');
    const all = [...this.disputes.values()]
      .filter((d) => d.created >= gte)
      .sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
    const after = q.get('starting_after');
    const from = after ? all.findIndex((d) => d.id === after) + 1 : 0;
    const page = all.slice(from, from + limit);
    return {
      object: 'list',
      url: '/v1/disputes',
      has_more: from + limit < all.length,
      data: page.map((d) =>
        expand ? d : { ...d, charge: typeof d.charge === 'string' ? d.charge : d.charge.id },
      ),
    };
  }
}

// By hand (`npx tsx tests/support/stripe-stand-in.ts [port]`, 12111 by default): a stand-in with one key and one open dispute, for `npm start` users pointing
// STRIPE_API_BASE at it.
if (process.argv[1]?.endsWith('stripe-stand-in.ts')) {
  const s = new StripeStandIn();
  s.addKey('rk_test_standin0000000000', { name: 'Stand-in Store' });
  s.addDispute({ reason: 'product_not_received' });
  void s
    .start(Number(process.argv[2] ?? 12111))
    .then((base) => console.log(`Stripe stand-in at ${base} (key rk_test_standin0000000000)`));
}

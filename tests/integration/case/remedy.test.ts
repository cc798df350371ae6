import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_STATUS,
  DEMO_TENANTS,
  DEMO_USERS,
  INTERNAL_CONTEXT_HEADER,
  REMEDY_MESSAGES as M,
  demoMerchantId,
  demoUserId,
  undisputedDateWindow,
  type RemedyBody,
  type RemedyViolation,
  type UndisputedTransaction,
} from '@portal/contracts';
import { signContext } from '@portal/core';
import { startStack, type Stack } from '@portal/runner';
import { remedyLookups, remedyViolations } from '../../../services/case/src/remedy/validate-remedy';
import { callGateway, signInThroughGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * CE 3.0 remedy (issue 13; spec 2 §2.8, §3, §5, §7, §8) through the gateway
 * with the real docs service, object store, job worker and Postgres:
 * eligibility as properties.can_remedy, a table of valid and invalid bodies
 * (every rule answered as data.violations with its property path), scope,
 * read-only and feature refusals, nothing half-saved, and a submission that
 * attaches the CE document as a representment version and moves the case on.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const ACME = DEMO_TENANTS.find((x) => x.id === 'acme')!;

/** The signed context a gateway would send for a demo manager (tests of the service's own checks). */
function signedAs(tenantId: string, extra: { read_only?: boolean } = {}): Record<string, string> {
  const tenant = DEMO_TENANTS.find((x) => x.id === tenantId)!;
  const user = DEMO_USERS.find((u) => u.username === 'manager')!;
  const id = demoUserId(tenant, user);
  const header = signContext(
    {
      tenant: tenant.id,
      user_id: id,
      actor_id: id,
      username: user.username,
      roles: [user.role],
      merchant_id: demoMerchantId(tenant, user.merchant),
      read_only: extra.read_only ?? false,
      mids_allowed: [],
      mids_excluded: [],
      request_id: 'remedy-test',
      kind: 'user',
    },
    t.deps.contextSecret,
  );
  return { [INTERNAL_CONTEXT_HEADER]: header };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON answers loosely and assert on them
type Json = any;
const api = async (
  user: string,
  method: string,
  path: string,
  body?: unknown,
  tenant = 'acme',
): Promise<{ status: number; json: Json }> =>
  callGateway(stack.gatewayUrl, tenant, method, path, { token: tokens.get(`${tenant}:${user}`), body });

interface CaseFacts {
  id: number;
  case_no: string;
  date_post: string;
  merchant_id: number;
}
let eligible: CaseFacts[] = [];
function take(merchantId?: number): CaseFacts {
  const i = eligible.findIndex((c) => merchantId === undefined || c.merchant_id === merchantId);
  if (i < 0) throw new Error('out of eligible cases');
  return eligible.splice(i, 1)[0]!;
}

const shift = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
const midnight = (d: string) => `${d}T00:00:00.000Z`;

const matching = {
  ip_address_details: '203.0.113.24',
  device_id_details: 'DEV-7F3A-22B1',
  device_fingerprinting_details: null,
  customer_account_login_id_details: 'jane.doe@example.com',
  address: null,
  address2: null,
  city: null,
  state_region: null,
  postal_code: null,
  country: null,
};

function undisputed(
  c: CaseFacts,
  n: 0 | 1,
  extra: Partial<UndisputedTransaction> = {},
): UndisputedTransaction {
  return {
    historical_arn: n === 0 ? '74123456789012345678901' : null,
    historical_transaction_id: n === 1 ? '381234567890123' : null,
    historical_tran_amount: n === 0 ? 49.99 : 120,
    historical_tran_currency: 'USD',
    historical_tran_date: midnight(shift(c.date_post, n === 0 ? 150 : 300)),
    historical_order_id: `ORD-${n + 1}`,
    shipping_delivery_status: 'D',
    tracking_information: `1Z999AA1012345678${n}`,
    merchandise_or_services: 'Merchandise',
    merchandise_or_services_description: 'Running shoes',
    ...matching,
    ...extra,
  };
}

function validBody(c: CaseFacts): RemedyBody {
  return {
    dl: {
      acquirer_case_number: c.case_no,
      merchandise_or_services_provided_date: midnight(shift(c.date_post, 20)),
      description: 'Running shoes, size 42',
      merchandise_or_services: 'Merchandise',
      shipping_delivery_status: 'D',
      tracking_information: '1Z999AA10123456784',
      disputed_transaction: { arn: null, tran_date: null, tran_amount: null, ...matching },
      undisputed_transactions: [undisputed(c, 0), undisputed(c, 1)],
    },
    doc: [
      { name: 'Disputed Transaction', value: '' },
      { name: 'Case Number', value: c.case_no },
      { name: 'IP Address', value: matching.ip_address_details },
    ],
  };
}

type Mutate = (b: RemedyBody, c: CaseFacts) => void;
const ut = (b: RemedyBody, i: number) => b.dl.undisputed_transactions[i]!;
const setAll = (b: RemedyBody, patch: Partial<UndisputedTransaction>) => {
  Object.assign(b.dl.disputed_transaction, patch);
  Object.assign(ut(b, 0), patch);
  Object.assign(ut(b, 1), patch);
};

async function snapshot(caseId: number) {
  const { rows } = await t.db.query<Json>(
    `select (select status_id from cases.cases where id = $1) as status,
       (select count(*)::int from cases.remedy_submissions where case_id = $1) as remedies,
       (select count(*)::int from docs.representment_versions where case_id = $1) as versions,
       (select count(*)::int from cases.case_history where case_id = $1) as history`,
    [caseId],
  );
  return rows[0];
}

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, {
    gatewayPort: 0,
    gatewayHost: '127.0.0.1',
    worker: { pollingIntervalSeconds: 0.5 },
  });
  for (const [tenant, username] of [
    ['acme', 'manager'],
    ['acme', 'agent'],
    ['acme', 'readonly'],
    ['acme', 'merchant.admin'],
    ['northbank', 'manager'],
  ] as const)
    tokens.set(`${tenant}:${username}`, await signInThroughGateway(stack.gatewayUrl, tenant, username));
  const { rows } = await t.db.query<CaseFacts>(
    `select c.id::int as id, c.case_no, to_char(c.date_post, 'YYYY-MM-DD') as date_post, c.merchant_id::int as merchant_id
     from cases.cases c join cases.reason_codes r on r.id = c.reason_code_id
     where c.tenant_id = 'acme' and c.card_type_id = 1 and r.code = '10.4' and c.cycle_id = 1 and c.status_id = 1
     order by c.date_post desc, c.id limit 1000`,
  );
  eligible = rows;
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await t?.close();
});

describe('eligibility (properties.can_remedy)', () => {
  it('the seed holds eligible cases for every demo merchant of acme, and the case answers can_remedy', async () => {
    for (const key of ['merchantA1', 'merchantA2', 'merchantB1'] as const)
      expect(
        eligible.filter((c) => c.merchant_id === demoMerchantId(ACME, key)).length,
      ).toBeGreaterThanOrEqual(3);
    const c = eligible[0]!;
    const r = await api('manager', 'GET', `/api/cm/cases/${c.id}`);
    expect(r.status).toBe(200);
    expect(r.json.properties.can_remedy).toBe(true);
  });

  it('is false for another card type, reason code, cycle, a defended case and a tenant without HAS_REMEDY', async () => {
    const { rows } = await t.db.query<{ id: number; why: string }>(
      `select distinct on (why) id::int as id, why from (
         select c.id, case when c.card_type_id <> 1 then 'card' when r.code <> '10.4' then 'code'
           when c.cycle_id <> 1 then 'cycle' else 'status' end as why
         from cases.cases c join cases.reason_codes r on r.id = c.reason_code_id
         where c.tenant_id = 'acme' and (c.card_type_id <> 1 or r.code <> '10.4' or c.cycle_id <> 1 or c.status_id not in (1, 2, 16))
           and (c.card_type_id = 1 or r.code <> '10.4')
       ) x order by why, id`,
    );
    expect(rows.map((r) => r.why).sort()).toEqual(['card', 'code', 'cycle', 'status']);
    for (const row of rows) {
      const r = await api('manager', 'GET', `/api/cm/cases/${row.id}`);
      expect(r.json.properties.can_remedy, row.why).toBe(false);
    }
    // northbank has the same kinds of cases but HAS_REMEDY is off there.
    const nb = await t.db.query<{ id: number }>(
      `select c.id::int as id from cases.cases c join cases.reason_codes r on r.id = c.reason_code_id
       where c.tenant_id = 'northbank' and c.card_type_id = 1 and r.code = '10.4' and c.cycle_id = 1 and c.status_id = 1 limit 1`,
    );
    expect(nb.rows.length).toBe(1);
    const r = await api('manager', 'GET', `/api/cm/cases/${nb.rows[0]!.id}`, undefined, 'northbank');
    expect(r.status).toBe(200);
    expect(r.json.properties.can_remedy).toBe(false);
    // The list answers the same property.
    const list = await api('manager', 'GET', `/api/cm/cases?search=${eligible[0]!.case_no}&limit=5`);
    expect(list.json.data.find((x: { id: number }) => x.id === eligible[0]!.id)?.properties.can_remedy).toBe(
      true,
    );
  });
});

describe('valid bodies (the rules accept them)', () => {
  const valid: Array<[string, Mutate]> = [
    ['an ARN of 23 and a transaction id of 15', () => {}],
    ['an ARN of 24', (b) => (ut(b, 0).historical_arn = '741234567890123456789012')],
    ['a transaction id of 16', (b) => (ut(b, 1).historical_transaction_id = '3812345678901234')],
    [
      'an amount of exactly 1 and of 2 decimals',
      (b) => ((ut(b, 0).historical_tran_amount = 1), (ut(b, 1).historical_tran_amount = 10.25)),
    ],
    [
      'the window edges: 120 and 365 days before the post date',
      (b, c) => {
        ut(b, 0).historical_tran_date = midnight(shift(c.date_post, 120));
        ut(b, 1).historical_tran_date = shift(c.date_post, 365);
      },
    ],
    [
      'Services with delivery status Other and no tracking',
      (b) => {
        b.dl.merchandise_or_services = 'Services';
        b.dl.shipping_delivery_status = 'O';
        b.dl.tracking_information = null;
        for (const i of [0, 1])
          Object.assign(ut(b, i), {
            merchandise_or_services: 'Services',
            shipping_delivery_status: 'O',
            tracking_information: null,
          });
      },
    ],
    [
      'device id and a full shipping address (no IP, no login)',
      (b) =>
        setAll(b, {
          ip_address_details: null,
          customer_account_login_id_details: null,
          address: '1 Main St',
          address2: null,
          city: 'Springfield',
          state_region: 'IL',
          postal_code: '62701',
          country: 'US',
        }),
    ],
    [
      'IP address and device fingerprint',
      (b) =>
        setAll(b, {
          device_id_details: null,
          customer_account_login_id_details: null,
          device_fingerprinting_details: 'fp:9a8b7c',
        }),
    ],
    ['IPv6 and login', (b) => setAll(b, { ip_address_details: '2001:db8::1', device_id_details: null })],
  ];
  it.each(valid)('%s', async (_name, mutate) => {
    const c = eligible[eligible.length - 1]!;
    const b = validBody(c);
    mutate(b, c);
    expect(remedyViolations(b, c, await remedyLookups(t.db))).toEqual([]);
  });
});

describe('invalid bodies: 400 with the violations, nothing saved', () => {
  const P = (i: number, k: string) => `undisputed_transactions[${i}].${k}`;
  const invalid: Array<[string, Mutate, RemedyViolation]> = [
    ['no dl at all', (b) => delete (b as Partial<RemedyBody>).dl, { propertyPath: 'dl', title: M.required }],
    [
      'one undisputed transaction',
      (b) => b.dl.undisputed_transactions.pop(),
      { propertyPath: 'undisputed_transactions', title: 'Two undisputed transactions are required.' },
    ],
    [
      'three undisputed transactions',
      (b, c) =>
        b.dl.undisputed_transactions.push(undisputed(c, 1, { historical_transaction_id: '381234567890999' })),
      { propertyPath: 'undisputed_transactions', title: 'Two undisputed transactions are required.' },
    ],
    [
      'ARN of 22 characters',
      (b) => (ut(b, 0).historical_arn = '7412345678901234567890'),
      { propertyPath: P(0, 'historical_arn'), title: M.txnIdLength },
    ],
    [
      'ARN of 25 characters is refused by its length',
      (b) => (ut(b, 0).historical_arn = '7412345678901234567890123'),
      { propertyPath: P(0, 'historical_arn'), title: 'Must be at most 24 characters.' },
    ],
    [
      'transaction id of 14',
      (b) => (ut(b, 1).historical_transaction_id = '38123456789012'),
      { propertyPath: P(1, 'historical_transaction_id'), title: M.txnIdLength },
    ],
    [
      'transaction id of 17',
      (b) => (ut(b, 1).historical_transaction_id = '38123456789012345'),
      { propertyPath: P(1, 'historical_transaction_id'), title: M.txnIdLength },
    ],
    [
      '23 characters sent as a transaction id',
      (b) => (ut(b, 1).historical_transaction_id = '38123456789012345678901'),
      {
        propertyPath: P(1, 'historical_transaction_id'),
        title: 'An identifier of 23-24 characters is an ARN: send it as historical_arn.',
      },
    ],
    [
      'neither ARN nor transaction id',
      (b) => (ut(b, 1).historical_transaction_id = '  '),
      { propertyPath: P(1, 'historical_transaction_id'), title: M.required },
    ],
    [
      'both ARN and transaction id',
      (b) => (ut(b, 0).historical_transaction_id = '381234567890555'),
      { propertyPath: P(0, 'historical_arn'), title: 'Send either an ARN or a transaction id, not both.' },
    ],
    [
      'symbols in a transaction id',
      (b) => (ut(b, 1).historical_transaction_id = '3812-4567890123'),
      { propertyPath: P(1, 'historical_transaction_id'), title: 'Only letters and digits are allowed.' },
    ],
    [
      'the same transaction twice',
      (b) => (
        (ut(b, 1).historical_transaction_id = null),
        (ut(b, 1).historical_arn = ut(b, 0).historical_arn)
      ),
      {
        propertyPath: P(1, 'historical_arn'),
        title: 'The undisputed transactions must be different transactions.',
      },
    ],
    [
      'amount below 1',
      (b) => (ut(b, 0).historical_tran_amount = 0.99),
      { propertyPath: P(0, 'historical_tran_amount'), title: 'Must be at least 1.' },
    ],
    [
      'negative amount',
      (b) => (ut(b, 1).historical_tran_amount = -5),
      { propertyPath: P(1, 'historical_tran_amount'), title: 'Must be at least 1.' },
    ],
    [
      'amount of three decimals',
      (b) => (ut(b, 0).historical_tran_amount = 10.005),
      { propertyPath: P(0, 'historical_tran_amount'), title: 'Must have at most two decimals.' },
    ],
    [
      'amount as text',
      (b) => ((ut(b, 0) as unknown as Record<string, unknown>).historical_tran_amount = 'ten'),
      { propertyPath: P(0, 'historical_tran_amount'), title: 'Must be a number.' },
    ],
    [
      'unknown currency',
      (b) => (ut(b, 0).historical_tran_currency = 'XYZ'),
      { propertyPath: P(0, 'historical_tran_currency'), title: 'Unknown currency.' },
    ],
    [
      'date 119 days before the post date',
      (b, c) => (ut(b, 0).historical_tran_date = midnight(shift(c.date_post, 119))),
      { propertyPath: P(0, 'historical_tran_date'), title: '' },
    ],
    [
      'date 366 days before the post date',
      (b, c) => (ut(b, 1).historical_tran_date = midnight(shift(c.date_post, 366))),
      { propertyPath: P(1, 'historical_tran_date'), title: '' },
    ],
    [
      'date after the post date',
      (b, c) => (ut(b, 1).historical_tran_date = midnight(shift(c.date_post, -10))),
      { propertyPath: P(1, 'historical_tran_date'), title: '' },
    ],
    [
      'not a calendar date',
      (b) => (ut(b, 0).historical_tran_date = '2025-02-30'),
      { propertyPath: P(0, 'historical_tran_date'), title: 'Must be a valid date.' },
    ],
    [
      'date with a time of day',
      (b) => (ut(b, 0).historical_tran_date = '2025-02-03T10:00:00Z'),
      { propertyPath: P(0, 'historical_tran_date'), title: 'Must be a date (yyyy-MM-dd, midnight UTC).' },
    ],
    [
      'no description of the goods',
      (b) => (ut(b, 1).merchandise_or_services_description = ' '),
      { propertyPath: P(1, 'merchandise_or_services_description'), title: M.required },
    ],
    [
      'Merchandise without tracking',
      (b) => (ut(b, 0).tracking_information = null),
      { propertyPath: P(0, 'tracking_information'), title: 'Tracking number is required for Merchandise.' },
    ],
    [
      'disputed Merchandise without tracking',
      (b) => (b.dl.tracking_information = ''),
      { propertyPath: 'tracking_information', title: 'Tracking number is required for Merchandise.' },
    ],
    [
      'Services not Other',
      (b) => Object.assign(ut(b, 0), { merchandise_or_services: 'Services', tracking_information: null }),
      { propertyPath: P(0, 'shipping_delivery_status'), title: 'Services have the delivery status Other.' },
    ],
    [
      'Services with tracking',
      (b) => Object.assign(ut(b, 0), { merchandise_or_services: 'Services', shipping_delivery_status: 'O' }),
      { propertyPath: P(0, 'tracking_information'), title: 'Services have no tracking number.' },
    ],
    [
      'unknown delivery status',
      (b) => ((ut(b, 0) as unknown as Record<string, unknown>).shipping_delivery_status = 'X'),
      { propertyPath: P(0, 'shipping_delivery_status'), title: 'Invalid value.' },
    ],
    [
      'unknown merchandise or services',
      (b) => ((b.dl as unknown as Record<string, unknown>).merchandise_or_services = 'Goods'),
      { propertyPath: 'merchandise_or_services', title: 'Invalid value.' },
    ],
    [
      'no description of the disputed transaction',
      (b) => (b.dl.description = null),
      { propertyPath: 'description', title: M.required },
    ],
    [
      'another case number',
      (b) => (b.dl.acquirer_case_number = 'X-1'),
      { propertyPath: 'acquirer_case_number', title: 'Must be the case number of the disputed case.' },
    ],
    [
      'no matching element',
      (b) =>
        setAll(b, {
          ip_address_details: null,
          device_id_details: null,
          customer_account_login_id_details: null,
        }),
      { propertyPath: P(0, 'ip_address_details'), title: 'At least one matching data element is required.' },
    ],
    [
      'one matching element only',
      (b) => setAll(b, { device_id_details: null, customer_account_login_id_details: null }),
      {
        propertyPath: P(1, 'ip_address_details'),
        title: 'Identify at least two matching data elements, one of which must be IP address or Device ID.',
      },
    ],
    [
      'two elements, neither IP nor device id',
      (b) =>
        setAll(b, {
          ip_address_details: null,
          device_id_details: null,
          device_fingerprinting_details: 'fp:1',
        }),
      {
        propertyPath: P(0, 'ip_address_details'),
        title: 'Identify at least two matching data elements, one of which must be IP address or Device ID.',
      },
    ],
    [
      'device id and fingerprint together',
      (b) => setAll(b, { device_fingerprinting_details: 'fp:1' }),
      {
        propertyPath: P(0, 'device_fingerprinting_details'),
        title: 'Device ID and Device Fingerprint may not both be supplied.',
      },
    ],
    [
      'login and address together',
      (b) =>
        setAll(b, {
          address: '1 Main St',
          city: 'Springfield',
          state_region: 'IL',
          postal_code: '62701',
          country: 'US',
        }),
      {
        propertyPath: P(1, 'customer_account_login_id_details'),
        title: 'Customer Account Login and Shipping Address may not both be supplied.',
      },
    ],
    [
      'an address without its city',
      (b) =>
        setAll(b, {
          customer_account_login_id_details: null,
          address: '1 Main St',
          state_region: 'IL',
          postal_code: '62701',
          country: 'US',
        }),
      { propertyPath: P(0, 'city'), title: M.required },
    ],
    [
      'address 2 alone needs the address',
      (b) => setAll(b, { customer_account_login_id_details: null, address2: 'Apt 4' }),
      { propertyPath: P(1, 'address'), title: M.required },
    ],
    [
      'unknown country',
      (b) =>
        setAll(b, {
          customer_account_login_id_details: null,
          address: '1 Main St',
          city: 'X',
          state_region: 'IL',
          postal_code: '62701',
          country: 'ZZ',
        }),
      { propertyPath: P(0, 'country'), title: 'Unknown country.' },
    ],
    [
      'not an IP address',
      (b) => setAll(b, { ip_address_details: '300.1.1.1' }),
      { propertyPath: P(0, 'ip_address_details'), title: 'Must be an IPv4 or IPv6 address.' },
    ],
    [
      'matching evidence that does not match the disputed transaction',
      (b) => (ut(b, 1).device_id_details = 'OTHER-DEVICE'),
      { propertyPath: P(1, 'device_id_details'), title: 'Does not match the disputed transaction.' },
    ],
    [
      'an empty document',
      (b) => (b.doc = []),
      { propertyPath: 'doc', title: 'At least 1 entry is required.' },
    ],
    [
      'a document entry without name',
      (b) => (b.doc[0]!.name = ''),
      { propertyPath: 'doc[0].name', title: M.required },
    ],
  ];

  it.each(invalid)('%s', async (_name, mutate, expected) => {
    const c = eligible[0]!;
    const b = validBody(c);
    mutate(b, c);
    const before = await snapshot(c.id);
    const r = await api('manager', 'POST', `/api/cm/cases/${c.id}/ce`, b);
    expect(r.status, JSON.stringify(r.json)).toBe(400);
    expect(r.json.message).toBe(M.invalid);
    const violations = r.json.data.violations as RemedyViolation[];
    const hit = violations.find((v) => v.propertyPath === expected.propertyPath);
    expect(hit, JSON.stringify(violations)).toBeDefined();
    if (expected.title) expect(hit!.title).toBe(expected.title);
    else {
      const w = undisputedDateWindow(c.date_post);
      expect(hit!.title).toBe(
        `Must be between ${w.from} and ${w.to} (120 to 365 days before the post date).`,
      );
    }
    expect(await snapshot(c.id)).toEqual(before);
  });
});

describe('refusals', () => {
  it('read-only users, tenants without HAS_REMEDY, cases out of scope, ineligible cases', async () => {
    const c = eligible[0]!;
    const before = await snapshot(c.id);
    // read-only: refused by the gateway before the case service
    expect((await api('readonly', 'POST', `/api/cm/cases/${c.id}/ce`, validBody(c))).status).toBe(403);
    // merchant.admin of merchantA1 may not reach a case of merchantB1: 404 as if unknown
    const other = eligible.find((x) => x.merchant_id === demoMerchantId(ACME, 'merchantB1'))!;
    const r = await api('merchant.admin', 'POST', `/api/cm/cases/${other.id}/ce`, validBody(other));
    expect(r.status).toBe(404);
    // northbank (HAS_REMEDY off): refused at the gateway ...
    const nb = await api('manager', 'POST', `/api/cm/cases/${c.id}/ce`, validBody(c), 'northbank');
    expect(nb.status).toBe(403);
    // ... and by the case service itself when called directly with a signed context.
    const direct = await fetch(`${stack.serviceUrls.case}/cm/cases/${c.id}/ce`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedAs('northbank'),
      },
      body: JSON.stringify(validBody(c)),
    });
    expect(direct.status).toBe(403);
    expect(((await direct.json()) as { message: string }).message).toBe(M.featureOff);
    // Read-only flagged in a directly signed context: the service refuses too.
    const ro = await fetch(`${stack.serviceUrls.case}/cm/cases/${c.id}/ce`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedAs('acme', { read_only: true }),
      },
      body: JSON.stringify(validBody(c)),
    });
    expect(ro.status).toBe(403);
    // an ineligible case (Mastercard)
    const { rows } = await t.db.query<{ id: number }>(
      `select id::int as id from cases.cases where tenant_id = 'acme' and card_type_id = 2 and status_id = 1 limit 1`,
    );
    const mc = await api('manager', 'POST', `/api/cm/cases/${rows[0]!.id}/ce`, validBody(c));
    expect(mc.status).toBe(409);
    expect(mc.json.message).toBe(M.notEligible);
    // an id that is not one
    expect(
      (await api('manager', 'POST', `/api/cm/cases/99999999999/ce`, validBody(c))).status,
    ).toBeGreaterThanOrEqual(400);
    expect(await snapshot(c.id)).toEqual(before);
  });

  it('a failed attachment (the case held open by another user) leaves no submission behind', async () => {
    const c = take(demoMerchantId(ACME, 'merchantA2'));
    const mark = await api('agent', 'PATCH', '/api/cm/cases/patch', {
      ids: String(c.id),
      status: 16,
      type: 'upload',
    });
    expect(mark.status, JSON.stringify(mark.json)).toBe(200);
    const before = await snapshot(c.id);
    const r = await api('manager', 'POST', `/api/cm/cases/${c.id}/ce`, validBody(c));
    expect(r.status).toBe(409);
    expect(await snapshot(c.id)).toEqual(before);
    expect((await api('manager', 'GET', `/api/cm/cases/${c.id}`)).json.properties.can_remedy).toBe(true);
  });
});

describe('a successful remedy', () => {
  it('stores the submission, attaches the CE document with provenance, moves the case on, can_remedy false', async () => {
    const c = take(demoMerchantId(ACME, 'merchantA1'));
    const body = validBody(c);
    const r = await api('merchant.admin', 'POST', `/api/cm/cases/${c.id}/ce`, body);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ message: M.success, version: 1, status_id: CASE_STATUS.DocCompiling });

    const { rows } = await t.db.query<Json>(
      `select state, dl, doc, document_sha256, document_pages, representment_version, submitted_by
       from cases.remedy_submissions where case_id = $1`,
      [c.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      state: 'submitted',
      representment_version: 1,
      submitted_by: 'merchant.admin',
    });
    expect(rows[0].dl).toEqual(body.dl);
    expect(rows[0].doc).toEqual(body.doc);

    // The document is the case's representment, recorded by the docs service with who, pages and hash.
    const docs = await api('merchant.admin', 'GET', `/api/docs/representment/${c.id}`);
    expect(docs.status).toBe(200);
    expect(docs.json.documents).toHaveLength(1);
    expect(docs.json.documents[0]).toMatchObject({
      filename: `ce3-remedy-${c.id}.pdf`,
      content_type: 'application/pdf',
      uploaded_by: 'merchant.admin',
      sha256: rows[0].document_sha256,
      pages: rows[0].document_pages,
    });
    const stored = await t.db.query<{ s3_key: string }>(
      `select d.s3_key from docs.representment_documents d join docs.representment_versions v on v.id = d.version_id
       where v.case_id = $1`,
      [c.id],
    );
    expect(stored.rows[0]!.s3_key.startsWith('acme/representments/')).toBe(true);

    const after = await api('merchant.admin', 'GET', `/api/cm/cases/${c.id}`);
    expect(after.json.properties.can_remedy).toBe(false);
    expect(after.json.status_id).not.toBe(CASE_STATUS.New);
    const history = await t.db.query<{ action: string }>(
      `select action from cases.case_history where case_id = $1 order by id`,
      [c.id],
    );
    expect(
      history.rows.some((h) =>
        /^CE 3\.0 Remedy submitted \(document \d+ page\(s\), representment v1\)$/.test(h.action),
      ),
    ).toBe(true);

    // Moves on as an upload does: compiled, then sent to the card network.
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (
        await t.db.query<{ s: number }>(`select status_id as s from cases.cases where id = $1`, [c.id])
      ).rows[0]!.s;
      if (status === CASE_STATUS.TransportCompleted) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    expect(status).toBe(CASE_STATUS.TransportCompleted);

    // A second remedy of the same case is refused.
    const again = await api('merchant.admin', 'POST', `/api/cm/cases/${c.id}/ce`, body);
    expect(again.status).toBe(409);
    expect(again.json.message).toBe(M.alreadySubmitted);
  });

  it('two submissions of one case at once: exactly one succeeds', async () => {
    const c = take(demoMerchantId(ACME, 'merchantB1'));
    const [a, b] = await Promise.all([
      api('manager', 'POST', `/api/cm/cases/${c.id}/ce`, validBody(c)),
      api('agent', 'POST', `/api/cm/cases/${c.id}/ce`, validBody(c)),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const { rows } = await t.db.query<Json>(
      `select count(*)::int as n from cases.remedy_submissions where case_id = $1`,
      [c.id],
    );
    expect(rows[0].n).toBe(1);
    const versions = await t.db.query<Json>(
      `select count(*)::int as n from docs.representment_versions where case_id = $1`,
      [c.id],
    );
    expect(versions.rows[0].n).toBe(1);
  });
});

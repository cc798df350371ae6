import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFLECTOR_SERVICE_DESK,
  FIELD_REQUIRED,
  INVALIDATE_CHANNEL,
  INVALID_EMAIL,
  ROOT_MERCHANT_READONLY,
  demoMerchantId,
  type MerchantTree,
} from '@portal/contracts';
import { ACME, NORTHBANK, demoCtx, startCaseApp, type CaseApp } from '../case/case-app';

let c: CaseApp;
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

const ROOT = demoMerchantId(ACME, 'root');
const PARTNER_A = demoMerchantId(ACME, 'partnerA');
const PARTNER_B = demoMerchantId(ACME, 'partnerB');
const MERCHANT_A1 = demoMerchantId(ACME, 'merchantA1');
const NB_ROOT = demoMerchantId(NORTHBANK, 'root');

const as = (username: string, tenant = 'acme') => demoCtx(tenant, username);
let seq = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++seq}`;

const validMerchant = (extra: Record<string, unknown> = {}) => ({
  business_name: uniq('Test Merchant'),
  business_address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US',
  business_phone: '555-0100',
  ...extra,
});

const validMid = (merchantId: number, extra: Record<string, unknown> = {}) => ({
  mid: uniq('M'),
  alias: 'Main MID',
  merchant_id: merchantId,
  descriptor: 'TEST*DESCRIPTOR',
  processor_id: 1,
  service_level_id: 1,
  mid_type_id: 1,
  ...extra,
});

const count = async (table: string) =>
  Number((await c.t.db.query<{ n: number }>(`select count(*)::int as n from cases.${table}`)).rows[0]!.n);

describe('GET /cm/merchants/list', () => {
  it('pages the root children by 20 with their counts, sorted by name (lazy: merchant-tree.test.ts)', async () => {
    const r = await c.call('GET', '/cm/merchants/list?start=0&limit=20', as('admin'));
    expect(r.status).toBe(200);
    const tree = r.body as MerchantTree;
    expect(tree.root.id).toBe(ROOT);
    expect(tree.data.length).toBeLessThanOrEqual(20);
    expect(tree.pagination).toMatchObject({ start: 0, limit: 20 });
    const names = tree.data.map((n) => n.label);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(tree.data.find((n) => n.id === PARTNER_A)).toMatchObject({ has_children: true, children: [] });
    const kids = await c.call('GET', `/cm/merchants/list?parent_id=${PARTNER_A}&limit=100`, as('admin'));
    const a1 = (kids.body as MerchantTree).data.find((ch) => ch.id === MERCHANT_A1)!;
    const { rows } = await c.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.mids where tenant_id = 'acme' and merchant_id = $1`,
      [MERCHANT_A1],
    );
    expect(a1.mid_count).toBe(rows[0]!.n);
  });

  it('searches anywhere below the root and expands the path of search_merchant_id', async () => {
    const s = await c.call('GET', '/cm/merchants/list?search=blue%20sky', as('admin'));
    const matches = (nodes: MerchantTree['data']): string[] =>
      nodes.flatMap((n) => [...(n.match ? [n.label] : []), ...matches(n.children)]);
    expect(matches(s.body.data)).toEqual(['Acme Blue Sky Outfitters']);
    const p = await c.call('GET', `/cm/merchants/list?search_merchant_id=${MERCHANT_A1}`, as('admin'));
    expect(p.body.path).toEqual([ROOT, PARTNER_A, MERCHANT_A1]);
    expect(p.body.data.map((n: { id: number }) => n.id)).toEqual([PARTNER_A]);
  });

  it('starts a partner at its own merchant and refuses a root outside its subtree', async () => {
    const own = await c.call('GET', '/cm/merchants/list', as('partner.admin'));
    expect(own.status).toBe(200);
    expect(own.body.root.id).toBe(PARTNER_A);
    for (const [user, id] of [
      ['partner.admin', PARTNER_B],
      ['partner.admin', ROOT],
      ['merchant.admin', PARTNER_A],
      ['admin', NB_ROOT],
    ] as const) {
      const r = await c.call('GET', `/cm/merchants/list?merchant_id=${id}`, as(user));
      expect(r.status, `${user} -> ${id}`).toBe(400);
    }
    const bad = await c.call('GET', '/cm/merchants/list?limit=500', as('admin'));
    expect(bad.status).toBe(400);
  });
});

describe('POST /cm/merchants', () => {
  it('creates with defaults: service level 1, parent = caller merchant, no contact or alias when empty', async () => {
    const body = validMerchant({
      alias: '  ',
      contact: { fname: '', lname: '', email: '', phone_number: '' },
    });
    const r = await c.call('POST', '/cm/merchants', as('partner.admin'), body);
    expect(r.status).toBe(201);
    expect(r.body.message).toBe('Merchant successfully added!');
    const { rows } = await c.t.db.query<Record<string, unknown>>(
      `select parent_id, service_level_id, alias, contact_email, contact_fname, status_id, country_id
       from cases.merchants where id = $1 and tenant_id = 'acme'`,
      [r.body.id],
    );
    expect(rows[0]).toMatchObject({
      parent_id: PARTNER_A,
      service_level_id: 1,
      alias: null,
      contact_email: null,
      contact_fname: null,
      status_id: 1,
      country_id: 1,
    });
    const detail = await c.call('GET', `/cm/merchants/${r.body.id}`, as('partner.admin'));
    expect(detail.body.business_name).toBe(body.business_name);
  });

  it('stores contact when filled, alias, service level and deflectors as Pending Activation', async () => {
    const body = validMerchant({
      alias: 'Alias X',
      parent_id: MERCHANT_A1,
      service_level_id: 5,
      contact: { fname: 'Ann', email: 'ann@example.com' },
      deflectors: [{ id: 1 }, { id: 3, status_id: 3 }],
    });
    const r = await c.call('POST', '/cm/merchants', as('admin'), body);
    expect(r.status).toBe(201);
    const { rows } = await c.t.db.query<Record<string, unknown>>(
      `select parent_id, service_level_id, alias, contact_fname, contact_email from cases.merchants where id = $1`,
      [r.body.id],
    );
    expect(rows[0]).toEqual({
      parent_id: MERCHANT_A1,
      service_level_id: 5,
      alias: 'Alias X',
      contact_fname: 'Ann',
      contact_email: 'ann@example.com',
    });
    const defl = await c.t.db.query<{ deflector_id: number; status_id: number }>(
      `select deflector_id, status_id from cases.merchant_deflectors where merchant_id = $1 order by 1`,
      [r.body.id],
    );
    expect(defl.rows).toEqual([
      { deflector_id: 1, status_id: 2 },
      { deflector_id: 3, status_id: 2 },
    ]);
  });

  const invalid: [string, Record<string, unknown>, number, string][] = [
    ['business_name blank', { business_name: ' ' }, 400, `business_name: ${FIELD_REQUIRED}`],
    ['address missing', { business_address: undefined }, 400, `business_address: ${FIELD_REQUIRED}`],
    ['city blank', { city: '' }, 400, `city: ${FIELD_REQUIRED}`],
    ['state blank', { state: '' }, 400, `state: ${FIELD_REQUIRED}`],
    ['zip blank', { zip: '' }, 400, `zip: ${FIELD_REQUIRED}`],
    ['country missing', { country: undefined }, 400, `country: ${FIELD_REQUIRED}`],
    ['phone blank', { business_phone: ' ' }, 400, `business_phone: ${FIELD_REQUIRED}`],
    ['unknown country', { country: 'ZZ' }, 400, 'country: Unknown country code ZZ.'],
    ['service level 2', { service_level_id: 2 }, 400, `service_level_id: ${FIELD_REQUIRED}`],
    ['bad contact email', { contact: { fname: 'A', email: 'nope' } }, 400, `contact.email: ${INVALID_EMAIL}`],
    ['bad status', { status_id: 7 }, 400, 'status_id: Status must be 1 (active) or 2 (inactive).'],
    ['unknown deflector', { deflectors: [{ id: 99 }] }, 400, 'deflectors: unknown deflector 99.'],
    ['parent outside scope', { parent_id: PARTNER_B }, 400, `parent_id: merchant ${PARTNER_B} not found.`],
    ['parent in other tenant', { parent_id: NB_ROOT }, 400, `parent_id: merchant ${NB_ROOT} not found.`],
    ['unknown field', { hacker: true }, 400, ''],
  ];
  it.each(invalid)('refuses %s, writing nothing', async (_name, patch, status, message) => {
    const before = await count('merchants');
    const r = await c.call('POST', '/cm/merchants', as('partner.admin'), validMerchant(patch));
    expect(r.status).toBe(status);
    if (message) expect(r.body.message).toBe(message);
    expect(await count('merchants')).toBe(before);
  });

  it.each([
    ['readonly', 403],
    ['merchant.admin', 403],
    ['partner.user', 403],
    ['agent', 403],
  ])('refuses %s (%i)', async (user, status) => {
    const before = await count('merchants');
    const r = await c.call('POST', '/cm/merchants', as(user), validMerchant());
    expect(r.status).toBe(status);
    expect(await count('merchants')).toBe(before);
  });
});

describe('PATCH/PUT /cm/merchants/{id}', () => {
  it('edits given fields, refuses the root and merchants outside the subtree', async () => {
    const created = await c.call('POST', '/cm/merchants', as('partner.admin'), validMerchant());
    const id = created.body.id as number;
    const ok = await c.call('PATCH', `/cm/merchants/${id}`, as('partner.admin'), {
      city: 'Shelbyville',
      alias: 'S',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Merchant successfully updated!');
    const { rows } = await c.t.db.query(`select city, alias from cases.merchants where id = $1`, [id]);
    expect(rows[0]).toEqual({ city: 'Shelbyville', alias: 'S' });

    const root = await c.call('PATCH', `/cm/merchants/${ROOT}`, as('admin'), { city: 'X' });
    expect(root.status).toBe(400);
    expect(root.body.message).toBe(ROOT_MERCHANT_READONLY);
    const outside = await c.call('PATCH', `/cm/merchants/${PARTNER_B}`, as('partner.admin'), { city: 'X' });
    expect(outside.status).toBe(404);
    const blankName = await c.call('PATCH', `/cm/merchants/${id}`, as('partner.admin'), {
      business_name: '',
    });
    expect(blankName.status).toBe(400);
    expect(blankName.body.message).toBe(`business_name: ${FIELD_REQUIRED}`);
    const ro = await c.call('PATCH', `/cm/merchants/${id}`, as('readonly'), { city: 'Y' });
    expect(ro.status).toBe(403);
    // Moving under its own child is refused; moving elsewhere in scope works (PUT with parents).
    const child = await c.call(
      'POST',
      '/cm/merchants',
      as('partner.admin'),
      validMerchant({ parent_id: id }),
    );
    const loop = await c.call('PATCH', `/cm/merchants/${id}`, as('partner.admin'), {
      parent_id: child.body.id,
    });
    expect(loop.status).toBe(400);
    const put = await c.call('PUT', `/cm/merchants/${child.body.id}`, as('partner.admin'), {
      ...validMerchant(),
      parents: [MERCHANT_A1],
    });
    expect(put.status).toBe(200);
    const moved = await c.t.db.query(`select parent_id from cases.merchants where id = $1`, [child.body.id]);
    expect(moved.rows[0]).toEqual({ parent_id: MERCHANT_A1 });
    const partial = await c.call('PUT', `/cm/merchants/${child.body.id}`, as('partner.admin'), { city: 'Z' });
    expect(partial.status).toBe(400);
  });

  it('refuses switching off a pending or active deflector in edit mode', async () => {
    const created = await c.call(
      'POST',
      '/cm/merchants',
      as('admin'),
      validMerchant({ deflectors: [{ id: 2 }] }),
    );
    const r = await c.call('PATCH', `/cm/merchants/${created.body.id}`, as('admin'), { deflectors: [] });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(DEFLECTOR_SERVICE_DESK);
    const added = await c.call('PATCH', `/cm/merchants/${created.body.id}`, as('admin'), {
      deflectors: [{ id: 2 }, { id: 1 }],
    });
    expect(added.status).toBe(200);
  });
});

describe('MIDs', () => {
  it('creates a MID with defaults, reads it, edits it and records every changed field', async () => {
    const body = validMid(MERCHANT_A1, { deflectors: [{ id: 1 }], mcc: '5411' });
    const r = await c.call('POST', '/cm/mids', as('partner.admin'), body);
    expect(r.status).toBe(201);
    expect(r.body.message).toBe('MID successfully added!');
    const mid = r.body.data;
    expect(mid).toMatchObject({
      mid: body.mid,
      status: { id: 2 },
      service_level: { id: 1 },
      mid_type_id: 1,
      descriptor: { descriptor: 'TEST*DESCRIPTOR' },
      processor: { id: 1, name: 'First Data' },
      mcc: '5411',
      deflectors: [{ id: 1, status: { id: 2 } }],
    });
    const got = await c.call('GET', `/cm/mids/${mid.id}`, as('merchant.admin'));
    expect(got.status).toBe(200);

    const patch = await c.call('PATCH', `/cm/mids/${mid.id}`, as('partner.admin'), {
      alias: 'Renamed',
      descriptor: 'NEW*DESC',
      status_id: 3,
      processor_id: 2,
      mcc: '5411',
    });
    expect(patch.status).toBe(200);
    expect(patch.body.message).toBe('MID successfully updated!');
    expect(patch.body.data).toMatchObject({
      alias: 'Renamed',
      descriptor: { descriptor: 'NEW*DESC' },
      status: { id: 3 },
    });

    const h = await c.call('GET', `/cm/mids/${mid.id}/history?start=0&limit=999`, as('partner.admin'));
    expect(h.status).toBe(200);
    const rows = (h.body.data as { field: string; old_value: string; new_value: string; username: string }[])
      .map((x) => [x.field, x.old_value, x.new_value, x.username])
      .sort();
    expect(rows).toEqual(
      [
        ['alias', 'Main MID', 'Renamed', 'partner.admin'],
        ['descriptor', 'TEST*DESCRIPTOR', 'NEW*DESC', 'partner.admin'],
        ['processor_id', '1', '2', 'partner.admin'],
        ['status_id', '2', '3', 'partner.admin'],
      ].sort(),
    );
    expect(h.body.pagination.total).toBe(4);
    const paged = await c.call('GET', `/cm/mids/${mid.id}/history`, as('partner.admin'));
    expect(paged.body.data).toHaveLength(4);
    expect(paged.body.pagination.limit).toBe(5);

    // History is for cb911 admin, partner admin and partner user only.
    for (const user of ['manager', 'merchant.admin', 'agent'])
      expect((await c.call('GET', `/cm/mids/${mid.id}/history`, as(user))).status, user).toBe(403);
    expect((await c.call('GET', `/cm/mids/${mid.id}/history`, as('admin'))).status).toBe(200);
    expect((await c.call('GET', `/cm/mids/${mid.id}/history`, as('partner.user'))).status).toBe(200);

    // Deflectors: switching off a pending one is refused, adding works and is recorded.
    const off = await c.call('PATCH', `/cm/mids/${mid.id}`, as('partner.admin'), { deflectors: [] });
    expect(off.status).toBe(400);
    expect(off.body.message).toBe(DEFLECTOR_SERVICE_DESK);
    const on = await c.call('PATCH', `/cm/mids/${mid.id}`, as('partner.admin'), {
      deflectors: [{ id: 1 }, { id: 2 }],
    });
    expect(on.status).toBe(200);
    const h2 = await c.call('GET', `/cm/mids/${mid.id}/history?limit=999`, as('partner.admin'));
    expect(h2.body.data[0]).toMatchObject({ field: 'deflectors', old_value: '1:2', new_value: '1:2,2:2' });
  });

  it('inherits the merchant deflectors when asked', async () => {
    const m = await c.call('POST', '/cm/merchants', as('admin'), validMerchant({ deflectors: [{ id: 3 }] }));
    const r = await c.call(
      'POST',
      '/cm/mids',
      as('admin'),
      validMid(m.body.id, { inherit_merchant_deflectors: true, deflectors: [{ id: 1 }] }),
    );
    expect(r.status).toBe(201);
    expect(r.body.data.deflectors.map((d: { id: number }) => d.id)).toEqual([3]);
    expect(r.body.data.inherit_merchant_deflectors).toBe(true);
  });

  const invalidMid: [string, Record<string, unknown>, number, string][] = [
    ['mid blank', { mid: '' }, 400, `mid: ${FIELD_REQUIRED}`],
    ['alias blank', { alias: ' ' }, 400, `alias: ${FIELD_REQUIRED}`],
    ['descriptor missing', { descriptor: undefined }, 400, `descriptor: ${FIELD_REQUIRED}`],
    ['service level missing', { service_level_id: undefined }, 400, `service_level_id: ${FIELD_REQUIRED}`],
    ['platform 0', { processor_id: 0 }, 400, `processor_id: ${FIELD_REQUIRED}`],
    ['unknown platform', { processor_id: 999 }, 400, 'processor_id: Unknown platform 999.'],
    ['mcc letters', { mcc: 'ab12' }, 400, 'mcc: MCC must be 4 digits.'],
    ['status 1', { status_id: 1 }, 400, 'status_id: Status must be 2 (on) or 3 (off).'],
    [
      'merchant outside scope',
      { merchant_id: PARTNER_B },
      400,
      `merchant_id: merchant ${PARTNER_B} not found.`,
    ],
    ['merchant other tenant', { merchant_id: NB_ROOT }, 400, `merchant_id: merchant ${NB_ROOT} not found.`],
    ['mid_type 2', { mid_type_id: 2 }, 400, ''],
  ];
  it.each(invalidMid)('refuses a MID with %s, writing nothing', async (_n, patch, status, message) => {
    const before = [await count('mids'), await count('descriptors')];
    const r = await c.call('POST', '/cm/mids', as('partner.admin'), validMid(MERCHANT_A1, patch));
    expect(r.status).toBe(status);
    if (message) expect(r.body.message).toBe(message);
    expect([await count('mids'), await count('descriptors')]).toEqual(before);
  });

  it('refuses a duplicate MID number (409) and keeps the first', async () => {
    const body = validMid(MERCHANT_A1);
    expect((await c.call('POST', '/cm/mids', as('admin'), body)).status).toBe(201);
    const again = await c.call('POST', '/cm/mids', as('admin'), { ...body, alias: 'Other' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`mid: MID ${body.mid} already exists.`);
  });

  it('keeps MIDs to the subtree and refuses read-only users and roles without CREATE_MID/EDIT_MID', async () => {
    const other = await c.call('POST', '/cm/mids', as('admin'), validMid(PARTNER_B));
    const id = other.body.data.id as number;
    expect((await c.call('GET', `/cm/mids/${id}`, as('partner.admin'))).status).toBe(404);
    expect((await c.call('PATCH', `/cm/mids/${id}`, as('partner.admin'), { alias: 'x' })).status).toBe(404);
    expect((await c.call('GET', `/cm/mids/${id}/history`, as('partner.user'))).status).toBe(404);
    expect((await c.call('GET', `/cm/mids/${id}`, as('admin', 'northbank'))).status).toBe(404);
    const mine = await c.call('POST', '/cm/mids', as('admin'), validMid(MERCHANT_A1));
    const before = await count('mid_history');
    expect(
      (await c.call('PATCH', `/cm/mids/${mine.body.data.id}`, as('readonly'), { alias: 'x' })).status,
    ).toBe(403);
    expect(
      (await c.call('PATCH', `/cm/mids/${mine.body.data.id}`, as('merchant.user'), { alias: 'x' })).status,
    ).toBe(403);
    expect((await c.call('POST', '/cm/mids', as('merchant.admin'), validMid(MERCHANT_A1))).status).toBe(403);
    // merchant.admin holds EDIT_MID within its own merchant.
    expect(
      (await c.call('PATCH', `/cm/mids/${mine.body.data.id}`, as('merchant.admin'), { alias: 'ok' })).status,
    ).toBe(200);
    expect(await count('mid_history')).toBe(before + 1);
    // A failing edit writes no history (same transaction).
    const dup = await c.call('PATCH', `/cm/mids/${mine.body.data.id}`, as('admin'), {
      alias: 'z',
      mid: other.body.data.mid,
    });
    expect(dup.status).toBe(409);
    expect(await count('mid_history')).toBe(before + 1);
  });
});

describe("a merchant's MIDs grid and descriptors", () => {
  it('pages and searches the merchant MIDs and keeps other subtrees out', async () => {
    const created = await c.call(
      'POST',
      '/cm/mids',
      as('admin'),
      validMid(MERCHANT_A1, { descriptor: 'GRID*FIND' }),
    );
    const { rows } = await c.t.db.query<{ n: number }>(
      `select count(*)::int as n from cases.mids where tenant_id = 'acme' and merchant_id = $1`,
      [MERCHANT_A1],
    );
    const page = await c.call(
      'GET',
      `/cm/merchants/${MERCHANT_A1}/mids?start=0&limit=50`,
      as('merchant.admin'),
    );
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ start: 0, limit: 50, total: rows[0]!.n });
    const found = await c.call(
      'GET',
      `/cm/merchants/${MERCHANT_A1}/mids?search=grid*find`,
      as('merchant.admin'),
    );
    expect(found.body.data.map((r: { id: number }) => r.id)).toEqual([created.body.data.id]);
    expect(found.body.data[0]).toMatchObject({
      descriptor: 'GRID*FIND',
      platform: 'First Data',
      status_id: 2,
    });
    const d = await c.call('GET', `/cm/merchants/${MERCHANT_A1}/descriptors`, as('merchant.user'));
    expect(d.body.data.map((x: { descriptor: string }) => x.descriptor)).toContain('GRID*FIND');
    expect((await c.call('GET', `/cm/merchants/${PARTNER_B}/mids`, as('partner.admin'))).status).toBe(404);
    expect((await c.call('GET', `/cm/merchants/${PARTNER_A}/descriptors`, as('merchant.admin'))).status).toBe(
      404,
    );
    expect((await c.call('GET', `/cm/merchants/${MERCHANT_A1}/mids?limit=1000`, as('admin'))).status).toBe(
      400,
    );
  });
});

describe('cache invalidation', () => {
  it('tells the gateways after each merchant and MID write', async () => {
    const seen: string[] = [];
    await c.t.deps.cache.subscribe(INVALIDATE_CHANNEL, (m) => seen.push(m));
    const m = await c.call('POST', '/cm/merchants', as('admin'), validMerchant());
    const mid = await c.call('POST', '/cm/mids', as('admin'), validMid(m.body.id));
    await c.call('PATCH', `/cm/merchants/${m.body.id}`, as('admin'), { city: 'Q' });
    await c.call('PATCH', `/cm/mids/${mid.body.data.id}`, as('admin'), { alias: 'Q' });
    await expect
      .poll(() =>
        seen.map((s) => JSON.parse(s) as { kind: string; id: number }).filter((x) => x.id === m.body.id),
      )
      .toHaveLength(4);
    expect(JSON.parse(seen[0]!)).toEqual({ tenant: 'acme', kind: 'merchant', id: m.body.id });
  });
});

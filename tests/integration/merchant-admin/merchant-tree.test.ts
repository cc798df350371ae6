import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchantId, type MerchantTree, type MerchantTreeNode } from '@portal/contracts';
import { ACME, NORTHBANK, demoCtx, startCaseApp, type CaseApp } from '../case/case-app';

/**
 * The lazy merchant tree (GET /cm/merchants/list, issue 15): a page carries
 * counts, not subtrees; parent_id pages a node's children; a search answers
 * the branches down to its matches; every refusal of the caller's scope.
 */
let c: CaseApp;
const ROOT = demoMerchantId(ACME, 'root');
const PARTNER_A = demoMerchantId(ACME, 'partnerA');
const PARTNER_B = demoMerchantId(ACME, 'partnerB');
const MERCHANT_A1 = demoMerchantId(ACME, 'merchantA1');
const MERCHANT_B1 = demoMerchantId(ACME, 'merchantB1');
const NB_ROOT = demoMerchantId(NORTHBANK, 'root');
const as = (username: string, tenant = 'acme') => demoCtx(tenant, username);
const tag = Date.now().toString(36);
/** The names the tree must order as Intl.Collator('en', { sensitivity: 'base' }) did (case and accents ignored, then id). */
const NAMES = [
  'zeta Works',
  'Éclair Foods',
  'eclair foods',
  'apple Farm',
  'Apple farm',
  'Ächt Trading',
  '10 Shop',
  '9 Shop',
  "O'Neil Goods",
  'oneil goods',
  ...Array.from({ length: 15 }, (_, i) => `Leaf ${String.fromCharCode(65 + i)} Store`),
];
let hub: number;
let kids: { id: number; name: string }[];
let deep: number;
let deepChild: number;

const insertMerchant = async (parent: number, name: string, alias: string | null = null) => {
  const { rows } = await c.t.db.query<{ id: number }>(
    `insert into cases.merchants (id, tenant_id, parent_id, business_name, alias)
     values (nextval('cases.merchant_id_seq'), 'acme', $1, $2, $3) returning id`,
    [parent, name, alias],
  );
  return Number(rows[0]!.id);
};
const insertMid = async (merchant: number, mid: string, descriptor: string, alias: string | null = null) => {
  const { rows } = await c.t.db.query<{ id: number }>(
    `insert into cases.mids (id, tenant_id, merchant_id, mid, alias, status_id)
     values (nextval('cases.mid_id_seq'), 'acme', $1, $2, $3, 2) returning id`,
    [merchant, mid, alias],
  );
  const id = Number(rows[0]!.id);
  await c.t.db.query(
    `insert into cases.descriptors (id, tenant_id, mid_id, descriptor) values (nextval('cases.descriptor_id_seq'), 'acme', $1, $2)`,
    [id, descriptor],
  );
  return id;
};

beforeAll(async () => {
  c = await startCaseApp();
  // partnerA > hub (25 children) ; one child > deep > deepChild, all named with the run's tag.
  hub = await insertMerchant(PARTNER_A, `Hub ${tag}`, `hub-${tag}`);
  kids = [];
  for (const name of NAMES) kids.push({ id: await insertMerchant(hub, name), name });
  deep = await insertMerchant(kids[0]!.id, `Quasar Deep ${tag}`, `qdeep-${tag}`);
  deepChild = await insertMerchant(deep, `Quasar Leaf ${tag}`);
  await insertMid(hub, `HUB${tag}1`, 'HUB*ONE');
  await insertMid(hub, `HUB${tag}2`, 'HUB*TWO');
  await insertMid(deep, `DEEP${tag}`, 'DEEP*ONLINE', 'Deep Web');
});
afterAll(async () => c.close());

const list = async (query: string, user = 'admin', tenant = 'acme') => {
  const r = await c.call('GET', `/cm/merchants/list?${query}`, as(user, tenant));
  return { status: r.status, tree: r.body as MerchantTree, body: r.body };
};
const count = async (sql: string, params: unknown[]) =>
  Number((await c.t.db.query<{ n: number }>(sql, params)).rows[0]!.n);
const collator = new Intl.Collator('en', { sensitivity: 'base' });
const expectedOrder = (rows: { id: number; name: string }[], dir = 1) =>
  [...rows].sort((a, b) => dir * (collator.compare(a.name, b.name) || a.id - b.id)).map((r) => r.id);

describe('a page of the tree', () => {
  it('holds the root children with counts, no subtrees or MIDs, and the root with its counts', async () => {
    const { status, tree } = await list('start=0&limit=20&sort_order=asc&sort_by=business_name');
    expect(status).toBe(200);
    expect(tree.root).toMatchObject({ id: ROOT, parentId: null });
    const rootKids = await count(
      `select count(*)::int as n from cases.merchants where tenant_id = 'acme' and parent_id = $1`,
      [ROOT],
    );
    expect(tree.root.child_count).toBe(rootKids);
    expect(tree.pagination).toEqual({ start: 0, limit: 20, total: rootKids });
    const a = tree.data.find((n) => n.id === PARTNER_A)!;
    expect(a.children).toEqual([]);
    expect(a).not.toHaveProperty('mids');
    expect(a.child_count).toBe(
      await count(`select count(*)::int as n from cases.merchants where parent_id = $1`, [PARTNER_A]),
    );
    expect(a.has_children).toBe(true);
    expect(a.match).toBe(false);
    expect(a.mid_count).toBe(
      await count(`select count(*)::int as n from cases.mids where merchant_id = $1`, [PARTNER_A]),
    );
  });

  it("pages a node's children with parent_id in the collation of the names, both ways", async () => {
    const first = await list(`parent_id=${hub}&start=0&limit=20`);
    expect(first.status).toBe(200);
    expect(first.tree.root).toMatchObject({ id: hub, child_count: NAMES.length, mid_count: 2 });
    expect(first.tree.pagination).toEqual({ start: 0, limit: 20, total: NAMES.length });
    const second = await list(`parent_id=${hub}&start=20&limit=20`);
    expect(second.tree.data).toHaveLength(NAMES.length - 20);
    const ids = [...first.tree.data, ...second.tree.data].map((n) => n.id);
    expect(ids).toEqual(expectedOrder(kids));
    const desc = await list(`parent_id=${hub}&start=0&limit=100&sort_order=desc`);
    expect(desc.tree.data.map((n) => n.id)).toEqual(expectedOrder(kids, -1));
    // The first kid holds `deep`: has_children and its count, but no children sent.
    const all = [...first.tree.data, ...second.tree.data];
    const holder = all.find((n) => n.id === kids[0]!.id)!;
    expect(holder).toMatchObject({ child_count: 1, has_children: true, mid_count: 0, children: [] });
    const leaf = all.find((n) => n.id === kids[1]!.id)!;
    expect(leaf).toMatchObject({ child_count: 0, has_children: false, mid_count: 0 });
  });

  it("counts only the MIDs a user's allow and exclude lists leave", async () => {
    const [one] = (
      await c.t.db.query<{ id: number }>(`select id from cases.mids where merchant_id = $1 order by id`, [
        hub,
      ])
    ).rows;
    const allowed = await c.call('GET', `/cm/merchants/list?parent_id=${hub}`, {
      ...as('partner.admin'),
      mids_allowed: [String(one!.id)],
    });
    expect(allowed.body.root.mid_count).toBe(1);
    const excluded = await c.call('GET', `/cm/merchants/list?parent_id=${hub}`, {
      ...as('partner.admin'),
      mids_excluded: [String(one!.id)],
    });
    expect(excluded.body.root.mid_count).toBe(1);
  });
});

describe('search', () => {
  it('answers the branches from the root down to the matches, matches flagged', async () => {
    const { tree } = await list(`search=quasar`);
    expect(tree.pagination.total).toBe(2);
    expect(tree.path).toEqual([]);
    // root > partnerA > hub > kids[0] > deep (match) > deepChild (match)
    expect(tree.data.map((n) => n.id)).toEqual([PARTNER_A]);
    const chain: MerchantTreeNode[] = [];
    for (let n: MerchantTreeNode | undefined = tree.data[0]; n; n = n.children[0]) chain.push(n);
    expect(chain.map((n) => n.id)).toEqual([PARTNER_A, hub, kids[0]!.id, deep, deepChild]);
    expect(chain.map((n) => n.match)).toEqual([false, false, false, true, true]);
    // Ancestors carry only the branch (partnerA has more children than the one sent).
    expect(chain[0]!.children).toHaveLength(1);
    expect(chain[0]!.child_count).toBeGreaterThan(1);
    expect(chain[3]).toMatchObject({ child_count: 1, mid_count: 1 });
  });

  it('matches alias and id, pages the matches by 20 and counts them all', async () => {
    const byAlias = await list(`search=qdeep-${tag}`);
    expect(byAlias.tree.pagination.total).toBe(1);
    const byId = await list(`search=${deepChild}`);
    expect(byId.tree.pagination.total).toBe(1);
    const leafs = await list(`search=leaf&merchant_id=${hub}`);
    expect(leafs.tree.pagination.total).toBe(16); // 15 'Leaf' stores and the Quasar Leaf
    expect(leafs.tree.root.id).toBe(hub);
    const page2 = await list(`search=store&merchant_id=${hub}&start=10&limit=10`);
    expect(page2.tree.pagination).toEqual({ start: 10, limit: 10, total: 15 });
    const matched = page2.tree.data.filter((n) => n.match).map((n) => n.label);
    expect(matched).toEqual(['Leaf K Store', 'Leaf L Store', 'Leaf M Store', 'Leaf N Store', 'Leaf O Store']);
  });

  it('expands the path of search_merchant_id (mids_tile_clicked) to that merchant only', async () => {
    const { tree } = await list(`search_merchant_id=${deep}`);
    expect(tree.path).toEqual([ROOT, PARTNER_A, hub, kids[0]!.id, deep]);
    expect(tree.data.map((n) => n.id)).toEqual([PARTNER_A]);
    expect(tree.data[0]!.children.map((n) => n.id)).toEqual([hub]);
    expect(tree.pagination.total).toBe(1);
    const target = tree.data[0]!.children[0]!.children[0]!.children[0]!;
    expect(target).toMatchObject({ id: deep, match: true, children: [], child_count: 1 });
    // The root itself: a plain page with the root on the path.
    const atRoot = await list(`search_merchant_id=${ROOT}`);
    expect(atRoot.tree.path).toEqual([ROOT]);
    expect(atRoot.tree.data.some((n) => n.id === PARTNER_A)).toBe(true);
  });
});

describe('scope and input', () => {
  it('keeps partner and merchant users to their subtree (parent_id, merchant_id, search, search_merchant_id)', async () => {
    const own = await list(`parent_id=${hub}`, 'partner.admin');
    expect(own.status).toBe(200);
    const refused: [string, string][] = [
      ['partner.admin', `parent_id=${PARTNER_B}`],
      ['partner.admin', `parent_id=${ROOT}`],
      ['partner.admin', `merchant_id=${ROOT}`],
      ['partner.admin', `search_merchant_id=${MERCHANT_B1}`],
      ['merchant.admin', `parent_id=${PARTNER_A}`],
      ['merchant.admin', `parent_id=${hub}`],
      ['merchant.admin', `search_merchant_id=${deep}`],
      ['admin', `parent_id=${NB_ROOT}`],
      ['admin', `search_merchant_id=${NB_ROOT}`],
      ['admin', `merchant_id=${hub}&search_merchant_id=${MERCHANT_A1}`],
      ['admin', `parent_id=999999999`],
    ];
    for (const [user, query] of refused) {
      const r = await list(query, user);
      expect(r.status, `${user} ${query}`).toBe(400);
      expect(r.body.message).toMatch(/not found\.$/);
    }
    // A partner's search never reaches another partner's merchants; the provider's does.
    const nw = await list('search=northwind', 'partner.admin');
    expect(nw.tree.pagination.total).toBe(0);
    expect(nw.tree.data).toEqual([]);
    expect((await list('search=northwind')).tree.pagination.total).toBe(1);
    // Another tenant's admin does not see this tenant's merchants.
    const other = await list(`search=${tag}`, 'admin', 'northbank');
    expect(other.status).toBe(200);
    expect(other.tree.pagination.total).toBe(0);
    const otherParent = await list(`parent_id=${hub}`, 'admin', 'northbank');
    expect(otherParent.status).toBe(400);
  });

  it('refuses parent_id with a search and limits over 100', async () => {
    for (const q of [
      `parent_id=${hub}&search=x`,
      `parent_id=${hub}&search_merchant_id=${deep}`,
      'limit=500',
    ]) {
      const r = await list(q);
      expect(r.status, q).toBe(400);
    }
  });
});

describe("a node's MIDs (GET /cm/merchants/{id}/mids, opened from the tree)", () => {
  it('finds MIDs by descriptor in any case, by alias and by MID, and counts them', async () => {
    const byDescriptor = await c.call('GET', `/cm/merchants/${deep}/mids?search=online`, as('partner.admin'));
    expect(byDescriptor.status).toBe(200);
    expect(byDescriptor.body.data.map((r: { mid: string }) => r.mid)).toEqual([`DEEP${tag}`]);
    expect(byDescriptor.body.pagination.total).toBe(1);
    const byAlias = await c.call('GET', `/cm/merchants/${deep}/mids?search=deep%20WEB`, as('admin'));
    expect(byAlias.body.pagination.total).toBe(1);
    const none = await c.call('GET', `/cm/merchants/${hub}/mids?search=online`, as('admin'));
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0 } });
    const paged = await c.call('GET', `/cm/merchants/${hub}/mids?search=hub*&start=1&limit=1`, as('admin'));
    expect(paged.body.pagination).toEqual({ start: 1, limit: 1, total: 2 });
    expect(paged.body.data.map((r: { descriptor: string }) => r.descriptor)).toEqual(['HUB*TWO']);
    const past = await c.call('GET', `/cm/merchants/${hub}/mids?search=hub&start=10`, as('admin'));
    expect(past.body).toMatchObject({ data: [], pagination: { total: 2 } });
    // A search that is a LIKE wildcard matches only itself.
    const wild = await c.call('GET', `/cm/merchants/${hub}/mids?search=%25`, as('admin'));
    expect(wild.body.pagination.total).toBe(0);
  });
});

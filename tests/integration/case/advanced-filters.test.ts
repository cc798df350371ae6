import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_PATHS } from '@portal/contracts';
import { loadTenants } from '../../../gateway/src/tenants/load';
import { demoCtx, startCaseApp, type CaseApp } from './case-app';

/**
 * What the advanced search's paged selects and its Search rely on (spec 2
 * §2.2): every lookup pages and searches consistently, the tenant configs
 * only name endpoints that exist, and each advanced filter narrows the list
 * as SQL does.
 */
let c: CaseApp;
const admin = demoCtx('acme', 'admin');
beforeAll(async () => {
  c = await startCaseApp();
});
afterAll(async () => c.close());

type Page = { data: { id: number }[]; pagination: { total: number; limit: number; start: number } };
const get = async (url: string): Promise<Page> => {
  const r = await c.call('GET', url, admin);
  expect(r.status, `${url}: ${r.raw}`).toBe(200);
  return r.body as Page;
};

/** All ids of a lookup read 5 at a time, as the select's pager asks. */
async function pagedIds(path: string, search = ''): Promise<{ ids: number[]; totals: Set<number> }> {
  const ids: number[] = [];
  const totals = new Set<number>();
  for (let start = 0; ; start += 5) {
    const q = new URLSearchParams({ start: String(start), limit: '5', ...(search ? { search } : {}) });
    const page = await get(`${path}?${q}`);
    expect(page.pagination).toMatchObject({ start, limit: 5 });
    totals.add(page.pagination.total);
    ids.push(...page.data.map((d) => d.id));
    if (page.data.length < 5) return { ids, totals };
  }
}

async function sqlCount(where: string, params: unknown[] = []): Promise<number> {
  const { rows } = await c.t.db.query<{ n: number }>(
    `select count(*)::int as n from cases.cases c where c.tenant_id = 'acme' and ${where}`,
    params,
  );
  return rows[0]!.n;
}
const total = async (query: string) => (await get(`/cm/cases?limit=0&${query}`)).pagination.total;

describe('lookups paged 5 at a time', () => {
  it('give every option once, in the order of the full list, with a steady total', async () => {
    for (const path of LOOKUP_PATHS) {
      const full = await get(`${path}?limit=999`);
      const { ids, totals } = await pagedIds(path);
      expect(ids, path).toEqual(full.data.map((d) => d.id));
      expect([...totals], path).toEqual([full.pagination.total]);
    }
  });

  it('page a search the same way', async () => {
    const full = await get('/cm/gen/rc?limit=999&search=visa');
    expect(full.pagination.total).toBeGreaterThan(5);
    const { ids, totals } = await pagedIds('/cm/gen/rc', 'visa');
    expect(ids).toEqual(full.data.map((d) => d.id));
    expect([...totals]).toEqual([full.pagination.total]);
    const none = await get('/cm/gen/rc?search=zz-no-such-code&start=0&limit=5');
    expect(none).toEqual({ data: [], pagination: { total: 0, limit: 5, start: 0 } });
  });
});

describe('tenant advanced filter configs', () => {
  it('name only endpoints that exist: a lookup or the assignable users', () => {
    const known = new Set<string>([...LOOKUP_PATHS, '/users/users']);
    for (const tenant of loadTenants(join(process.cwd(), 'config', 'tenants'))) {
      for (const f of tenant.config.advanced_filters) {
        if (f.endpoint) expect(known.has(f.endpoint), `${tenant.file}: ${f.alias} ${f.endpoint}`).toBe(true);
      }
    }
  });
});

describe('advanced search parameters of GET /cm/cases', () => {
  it('narrow by reason codes, card type, verdicts and assigned user like SQL', async () => {
    const { rows } = await c.t.db.query<{ reason_code_id: number; verdict_id: number; card_type_id: number }>(
      `select reason_code_id, verdict_id, card_type_id from cases.cases where tenant_id = 'acme'
       group by 1, 2, 3 order by count(*) desc limit 2`,
    );
    const [a, b] = rows as [(typeof rows)[0], (typeof rows)[0]];
    expect(await total(`reason_code_id=${a.reason_code_id},${b.reason_code_id}`)).toBe(
      await sqlCount('reason_code_id = any($1::int[])', [[a.reason_code_id, b.reason_code_id]]),
    );
    expect(await total(`card_type_id=${a.card_type_id}`)).toBe(
      await sqlCount('card_type_id = $1', [a.card_type_id]),
    );
    expect(await total(`verdict_id=${a.verdict_id},${b.verdict_id}`)).toBe(
      await sqlCount('verdict_id = any($1::int[])', [[a.verdict_id, b.verdict_id]]),
    );
    const assigned = await c.t.db.query<{ assigned_user_id: number }>(
      `select assigned_user_id from cases.cases where tenant_id = 'acme' and assigned_user_id is not null limit 1`,
    );
    const userId = assigned.rows[0]!.assigned_user_id;
    const n = await total(`assigned_user_id=${userId}`);
    expect(n).toBeGreaterThan(0);
    expect(n).toBe(await sqlCount('assigned_user_id = $1', [userId]));
  });

  it('narrow by several MIDs and by case number prefix', async () => {
    const { rows } = await c.t.db.query<{ mid: string; id: number }>(
      `select mi.mid, mi.id from cases.mids mi where mi.tenant_id = 'acme'
       and exists (select 1 from cases.cases c where c.mid_id = mi.id) order by mi.id limit 2`,
    );
    expect(await total(`mid=${rows.map((r) => r.mid).join(',')}`)).toBe(
      await sqlCount('mid_id = any($1::bigint[])', [rows.map((r) => r.id)]),
    );
    const one = (await get('/cm/cases?limit=1')).data[0] as unknown as { case_no: string };
    expect(await total(`case_no=${encodeURIComponent(one.case_no)}`)).toBeGreaterThanOrEqual(1);
  });

  it('answers 400 for an operator sent without its amount (the form blanks it)', async () => {
    const r = await c.call('GET', '/cm/cases?limit=0&dispute_amt_operator=%3E', admin);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('dispute_amt');
  });
});

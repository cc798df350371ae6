import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MERCHANTS, DEMO_TENANTS, demoMerchantId } from '@portal/contracts';
import { createTestEnv, type TestEnv } from '../../support/test-env';

let t: TestEnv;
beforeAll(async () => {
  t = await createTestEnv();
});
afterAll(async () => {
  await t.close();
});

describe('the case seed (default scale)', () => {
  it('creates the demo merchants of demo.ts with their settings', async () => {
    for (const tenant of DEMO_TENANTS) {
      for (const m of DEMO_MERCHANTS) {
        const { rows } = await t.db.query<{
          tenant_id: string;
          business_name: string;
          service_level_id: number;
          show_alerts_banner: boolean;
          allowed_domains: string[];
        }>(
          `select tenant_id, business_name, service_level_id, show_alerts_banner, allowed_domains from cases.merchants where id = $1`,
          [demoMerchantId(tenant, m.key)],
        );
        expect(rows[0]).toMatchObject({
          tenant_id: tenant.id,
          service_level_id: m.service_level_id,
          show_alerts_banner: m.show_alerts_banner,
          allowed_domains: m.allowed_domains,
        });
        expect(rows[0]!.business_name).toContain(m.name);
      }
    }
  });

  it('seeds 3000 cases per tenant with the spec mixes, and exact counts', async () => {
    const { rows } = await t.db.query<{
      tenant_id: string;
      n: number;
      counted: number;
      open: number;
      expiring: number;
      compiling: number;
      cycles: number;
      cards: number;
    }>(
      `select tenant_id, count(*)::int n,
         (select sum(n)::int from cases.case_counts k where k.tenant_id = c.tenant_id) counted,
         count(*) filter (where status_group_id in (1, 2))::int open,
         count(*) filter (where status_group_id in (1, 2) and date_due between current_date and current_date + 3)::int expiring,
         count(*) filter (where status_id = 6)::int compiling,
         count(distinct cycle_id)::int cycles, count(distinct card_type_id)::int cards
       from cases.cases c group by tenant_id order by tenant_id`,
    );
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.n).toBe(3000);
      expect(r.counted).toBe(3000);
      expect(r.open).toBeGreaterThan(50);
      expect(r.expiring).toBeGreaterThan(0);
      expect(r.compiling).toBeGreaterThan(0);
      expect(r.cycles).toBe(3);
      expect(r.cards).toBe(4);
    }
    const span = await t.db.query<{ months: number }>(
      `select (max(date_post) - min(date_post))::int / 30 as months from cases.cases`,
    );
    expect(span.rows[0]!.months).toBeGreaterThanOrEqual(17);
  });

  it('leaves every table it wrote vacuumed and analyzed: index-only scans and sound plans from the first query', async () => {
    // Catalog state, so a clone of the seeded template keeps it: a table never vacuumed has no page marked
    // all-visible, one never analyzed has reltuples -1.
    const { rows } = await t.db.query<{ name: string; pages: number; visible: number; tuples: number }>(
      `select c.relname as name, c.relpages as pages, c.relallvisible as visible, c.reltuples::float8 as tuples
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'cases' and c.relkind = 'r' and c.relpages > 0 order by 1`,
    );
    expect(rows.length).toBeGreaterThan(10);
    const stale = rows.filter((r) => r.visible === 0 || r.tuples < 0).map((r) => r.name);
    expect(stale).toEqual([]);
  });
});

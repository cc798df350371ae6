import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@portal/core';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * What other services may read of the case data (design §13): the cases_api schema of migration
 * case/035, on a database cloned from the seeded template. Each view answers, has only the columns
 * declared for its readers, and gives a tenant exactly its own rows; the status function moves a case
 * once and records it, the hold function names who else has a case open.
 */
const VIEWS: Record<string, { table: string; columns: string[] }> = {
  merchants: { table: 'cases.merchants', columns: ['tenant_id', 'id', 'parent_id', 'business_name'] },
  mids: { table: 'cases.mids', columns: ['tenant_id', 'id', 'mid'] },
  cases: {
    table: 'cases.cases',
    columns: [
      'tenant_id',
      'id',
      'merchant_id',
      'mid_id',
      'status_id',
      'status_group_id',
      'date_due',
      'assigned_user_id',
    ],
  },
  alerts: { table: 'cases.alerts', columns: ['tenant_id', 'id', 'mid_id'] },
};
/**
 * Views of rows the seed has none of (a processor connection is made by a person): their columns are
 * checked here, their rows by the connector tests (tests/integration/connectors).
 */
const UNSEEDED_VIEWS: Record<string, string[]> = {
  connector_cases: [
    'tenant_id',
    'case_id',
    'processor',
    'dispute_id',
    'stage',
    'connection_id',
    'api_key_sealed',
    'date_due',
  ],
};

let t: TestEnv;
let db: Db;
beforeAll(async () => {
  t = await createTestEnv();
  db = t.db;
});
afterAll(async () => t?.close());

async function count(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params);
  return rows[0]!.n;
}

describe('cases_api views', () => {
  it('declares exactly the views above, each with only its columns', async () => {
    const { rows } = await db.query<{ view: string; columns: string[] }>(
      `select c.table_name as view, array_agg(c.column_name::text order by c.ordinal_position) as columns
         from information_schema.columns c
         join information_schema.views v on v.table_schema = c.table_schema and v.table_name = c.table_name
        where c.table_schema = 'cases_api' group by c.table_name order by 1`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.view, r.columns]))).toEqual(
      Object.fromEntries(
        [
          ...Object.entries(VIEWS).map(([view, v]) => [view, v.columns] as const),
          ...Object.entries(UNSEEDED_VIEWS),
        ].sort(([a], [b]) => a.localeCompare(b)),
      ),
    );
  });

  for (const [view, { table }] of Object.entries(VIEWS)) {
    it(`cases_api.${view} answers each tenant its own rows of ${table}`, async () => {
      for (const tenant of ['acme', 'northbank']) {
        const n = await count(`cases_api.${view} where tenant_id = $1`, [tenant]);
        expect(n, `${view} of ${tenant}`).toBeGreaterThan(0);
        expect(n).toBe(await count(`${table} where tenant_id = $1`, [tenant]));
      }
      expect(await count(`cases_api.${view} where tenant_id = $1`, ['nobody'])).toBe(0);
    });
  }

  it('gives the readers the same rows their queries read from the tables', async () => {
    const { rows: cases } = await db.query<{ same: boolean }>(
      `select bool_and(a.merchant_id = c.merchant_id and a.mid_id = c.mid_id and a.status_id = c.status_id
               and a.status_group_id = c.status_group_id and a.date_due = c.date_due
               and a.assigned_user_id is not distinct from c.assigned_user_id) as same
         from cases_api.cases a join cases.cases c on c.id = a.id where a.tenant_id = 'acme'`,
    );
    expect(cases[0]!.same).toBe(true);
    const { rows: alerts } = await db.query<{ same: boolean }>(
      `select bool_and(a.mid_id is not distinct from d.mid_id) as same
         from cases_api.alerts a join cases.alerts x on x.id = a.id
         join cases.alert_descriptors d on d.id = x.descriptor_id where a.tenant_id = 'acme'`,
    );
    expect(alerts[0]!.same).toBe(true);
    // The hierarchy walks of the webhook dispatcher and the reminders: every merchant reaches a root.
    const { rows: tree } = await db.query<{ n: number; rooted: number }>(
      `with recursive up(id, parent_id, depth) as (
         select id, parent_id, 0 from cases_api.merchants where tenant_id = 'acme'
         union all
         select up.id, m.parent_id, up.depth + 1 from up
           join cases_api.merchants m on m.tenant_id = 'acme' and m.id = up.parent_id where up.depth < 20
       ) select count(distinct id)::int as n, count(distinct id) filter (where parent_id is null)::int as rooted from up`,
    );
    expect(tree[0]!.rooted).toBe(tree[0]!.n);
  });
});

describe('cases_api functions', () => {
  async function openCase(tenant: string): Promise<number> {
    const { rows } = await db.query<{ id: string }>(
      `select id from cases_api.cases where tenant_id = $1 and status_id = 1
          and id not in (select case_id from cases.case_marks) order by id limit 1`,
      [tenant],
    );
    return Number(rows[0]!.id);
  }

  it('set_representment_status moves a case in one of `from`, records it, and answers the previous status', async () => {
    const id = await openCase('acme');
    const move = (tenant: string, from: number[]) =>
      db.query<{ previous: number | null }>(
        `select cases_api.set_representment_status($1, $2, $3::int[], 6, 'Documents compiling', 7, 'agent') as previous`,
        [tenant, id, from],
      );
    // Another tenant's case, or a case not in `from`: nothing changes.
    expect((await move('northbank', [1])).rows[0]!.previous).toBeNull();
    expect((await move('acme', [2, 3])).rows[0]!.previous).toBeNull();
    expect((await move('acme', [1])).rows[0]!.previous).toBe(1);
    expect((await move('acme', [1])).rows[0]!.previous).toBeNull();
    const { rows } = await db.query<{ status_id: number }>(
      'select status_id from cases_api.cases where tenant_id = $1 and id = $2',
      ['acme', id],
    );
    expect(rows[0]!.status_id).toBe(6);
    const history = await db.query<{ action: string; username: string }>(
      'select action, username from cases.case_history where case_id = $1 order by id desc limit 1',
      [id],
    );
    expect(history.rows).toEqual([{ action: 'Documents compiling', username: 'agent' }]);
  });

  it('case_held_by_other names the user who holds the case open, never the caller', async () => {
    const id = await openCase('acme');
    const held = async (userId: number | null) =>
      (
        await db.query<{ held: string | null }>(
          'select cases_api.case_held_by_other($1, $2, $3, 30) as held',
          ['acme', id, userId],
        )
      ).rows[0]!.held;
    expect(await held(7)).toBeNull();
    await db.query(
      `insert into cases.case_marks (case_id, tenant_id, type, status, user_id, username) values ($1, 'acme', 'upload', 16, 8, 'manager')`,
      [id],
    );
    expect(await held(7)).toBe('manager');
    expect(await held(8)).toBeNull();
    // Only the case's own tenant sees the hold.
    const other = await db.query<{ held: string | null }>(
      'select cases_api.case_held_by_other($1, $2, 7, 30) as held',
      ['northbank', id],
    );
    expect(other.rows[0]!.held).toBeNull();
  });

  it('leaves no representment function in the cases schema (cases_api is the one door)', async () => {
    const { rows } = await db.query<{ schema: string; name: string }>(
      `select n.nspname as schema, p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where p.proname in ('set_representment_status', 'case_held_by_other') order by 1, 2`,
    );
    expect(rows).toEqual([
      { schema: 'cases_api', name: 'case_held_by_other' },
      { schema: 'cases_api', name: 'set_representment_status' },
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '@portal/core';
import { createTestEnv, type TestEnv } from '../../support/test-env';

let t: TestEnv;
/** A promise resolved from outside (Promise.withResolvers needs Node 22). */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
beforeAll(async () => {
  t = await createTestEnv();
});
afterAll(() => t.close());

describe('database layer against real Postgres', () => {
  it('works in a database of its own cloned from the seeded template', async () => {
    const { rows } = await t.db.query<{ db: string }>('select current_database() as db');
    expect(rows[0]!.db).toMatch(/^portal_t_[a-z0-9]+_[0-9a-f]{8}$/);
    const tenants = await t.db.query<{ id: string }>('select id from cases.tenants order by id');
    expect(tenants.rows.map((r) => r.id)).toEqual(['acme', 'northbank']);
  });

  it('returns dates as yyyy-MM-dd strings and numeric and int8 as numbers', async () => {
    const { rows } = await t.db.query<{ d: unknown; n: unknown; i: unknown }>(
      `select date '2026-03-01' as d, 12.50::numeric(12,2) as n, 9007199254::int8 as i`,
    );
    expect(rows[0]).toEqual({ d: '2026-03-01', n: 12.5, i: 9007199254 });
  });

  it('rolls a failed transaction back completely', async () => {
    await t.db.query('create table public.tx_probe (id int primary key)');
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query('insert into public.tx_probe values (1)');
        await tx.query('insert into public.tx_probe values (1)');
      }),
    ).rejects.toThrow(/duplicate key/);
    const { rows } = await t.db.query('select * from public.tx_probe');
    expect(rows).toEqual([]);
  });

  it('runs a transaction again when Postgres ends it to break a deadlock', async () => {
    await t.db.query('create table public.deadlock_tx (id int primary key, v int not null)');
    await t.db.query('insert into public.deadlock_tx values (1, 0), (2, 0)');
    const holds = [signal(), signal()] as const;
    const runs = [0, 0];
    // Each takes one row, waits until the other holds its own, then asks for the other's: a deadlock.
    const crossing = (me: 0 | 1) =>
      t.db.transaction(async (tx) => {
        runs[me]!++;
        await tx.query('update public.deadlock_tx set v = v + 1 where id = $1', [me + 1]);
        holds[me].resolve();
        await holds[1 - me]!.promise;
        await tx.query('update public.deadlock_tx set v = v + 1 where id = $1', [2 - me]);
      });
    await Promise.all([crossing(0), crossing(1)]);
    // One of the two was ended by Postgres and ran again; each committed once.
    expect(runs[0]! + runs[1]!).toBe(3);
    const { rows } = await t.db.query('select id, v from public.deadlock_tx order by id');
    expect(rows).toEqual([
      { id: 1, v: 2 },
      { id: 2, v: 2 },
    ]);
  });

  it('runs a single statement again when Postgres ends it to break a deadlock', async () => {
    await t.db.query('create table public.deadlock_one (id int primary key, v int not null)');
    await t.db.query('insert into public.deadlock_one values (1, 0), (2, 0)');
    const statement = 'update public.deadlock_one set v = v + 10 where id in (1, 2)';
    const holding = signal();
    const transaction = t.db.transaction(async (tx) => {
      await tx.query('update public.deadlock_one set v = v + 1 where id = 2');
      holding.resolve();
      // The statement has taken row 1 and waits for row 2: asking for row 1 closes the circle.
      await expect
        .poll(
          async () => {
            const { rows } = await t.db.query(
              `select count(*)::int as n from pg_stat_activity where query = $1 and wait_event_type = 'Lock'`,
              [statement],
            );
            return rows[0]!.n;
          },
          { timeout: 10_000 },
        )
        .toBe(1);
      await tx.query('update public.deadlock_one set v = v + 1 where id = 1');
    });
    await holding.promise;
    await Promise.all([t.db.query(statement), transaction]);
    const { rows } = await t.db.query('select id, v from public.deadlock_one order by id');
    expect(rows).toEqual([
      { id: 1, v: 11 },
      { id: 2, v: 11 },
    ]);
  });

  it('prepares a statement marked prepared once per connection and runs it again with new values', async () => {
    const sql =
      'select $1::int * 2 as n, (select count(*) from pg_prepared_statements where statement = $2) as here';
    const results = await t.db.transaction(async (tx) => {
      const first = await tx.query<{ n: number; here: number }>(sql, [1, sql], { prepared: true });
      const second = await tx.query<{ n: number; here: number }>(sql, [21, sql], { prepared: true });
      const plain = await tx.query<{ n: number; here: number }>(`${sql} `, [3, sql]);
      return [first.rows[0], second.rows[0], plain.rows[0]];
    });
    // Its own text is listed as prepared on the connection that ran it (once, though it ran twice).
    expect(results).toEqual([
      { n: 2, here: 1 },
      { n: 42, here: 1 },
      { n: 6, here: 1 },
    ]);
    const outside = await t.db.query<{ n: number }>(sql, [5, sql], { prepared: true });
    expect(outside.rows[0]!.n).toBe(10);
  });

  it('streams a large result in batches through a cursor', async () => {
    const batches: number[] = [];
    for await (const batch of t.db.stream<{ n: number }>(
      'select n from generate_series(1, 2500) as n order by n',
      [],
      1000,
    )) {
      batches.push(batch.length);
    }
    expect(batches).toEqual([1000, 1000, 500]);
  });

  it('applies each migration once and refuses versions out of order', async () => {
    const plan = {
      schema: 'probe',
      migrations: [{ version: 1, name: '001', sql: 'create table probe.t (id int)' }],
    };
    expect(await migrate(t.db, plan)).toEqual([1]);
    expect(await migrate(t.db, plan)).toEqual([]);
    await expect(
      migrate(t.db, {
        schema: 'probe',
        migrations: [plan.migrations[0]!, { version: 1, name: 'dup', sql: 'select 1' }],
      }),
    ).rejects.toThrow(/strictly increasing/);
  });
});

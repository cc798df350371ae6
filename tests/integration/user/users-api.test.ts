import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * What other services may read of the user data (design §13): the users_api schema of migration
 * user/013, on a database cloned from the seeded template. The mailed exports of the case service's
 * jobs read a recipient's address there, never users.users.
 */
let t: TestEnv;
beforeAll(async () => {
  t = await createTestEnv();
});
afterAll(async () => t?.close());

it('declares only mail_recipients, with only the columns a mail needs', async () => {
  const { rows } = await t.db.query<{ view: string; columns: string[] }>(
    `select c.table_name as view, array_agg(c.column_name::text order by c.ordinal_position) as columns
       from information_schema.columns c
       join information_schema.views v on v.table_schema = c.table_schema and v.table_name = c.table_name
      where c.table_schema = 'users_api' group by c.table_name order by 1`,
  );
  expect(rows).toEqual([
    { view: 'mail_recipients', columns: ['tenant_id', 'id', 'email', 'fname', 'username'] },
  ]);
});

it('users_api.mail_recipients answers each tenant its own users', async () => {
  for (const tenant of ['acme', 'northbank']) {
    const { rows } = await t.db.query<{ n: number; same: boolean }>(
      `select count(*)::int as n,
              bool_and(r.email = u.email and r.fname = u.fname and r.username = u.username) as same
         from users_api.mail_recipients r join users.users u on u.id = r.id
        where r.tenant_id = $1`,
      [tenant],
    );
    const { rows: all } = await t.db.query<{ n: number }>(
      'select count(*)::int as n from users.users where tenant = $1',
      [tenant],
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect(rows[0]).toEqual({ n: all[0]!.n, same: true });
  }
});

/**
 * One account per simulated person (mix/users.ts): a copy of a demo account
 * (role, merchant, read-only, password, MIDs, groups, resources,
 * notifications, and the case service's assignee row) named
 * `<demo username>.b<n>`, written into the stack's database once (kept for
 * later runs).
 */
import pg from 'pg';
import type { SimUser } from './types';

/** Tables of a user's grants, copied with the account. */
const GRANT_TABLES = ['user_mids', 'user_groups', 'user_resources', 'user_notifications'];

async function columnsOf(db: pg.Pool, table: string): Promise<string[]> {
  const r = await db.query<{ column_name: string }>(
    `select column_name from information_schema.columns
      where table_schema = 'users' and table_name = $1 and is_identity = 'NO' and is_generated = 'NEVER'
        and column_name <> 'user_id'`,
    [table],
  );
  return r.rows.map((row) => pg.escapeIdentifier(row.column_name));
}

/** Creates the accounts of `users` that do not exist yet, each a copy of its demo account. */
export async function ensureBenchAccounts(db: pg.Pool, users: SimUser[]): Promise<number> {
  const userColumns = (await columnsOf(db, 'users')).filter(
    (c) => !['"username"', '"created_at"', '"updated_at"', '"created_by"'].includes(c),
  );
  const grants = await Promise.all(
    GRANT_TABLES.map(async (t) => ({ table: t, columns: await columnsOf(db, t) })),
  );
  let created = 0;
  for (const user of users) {
    const demo = user.username.replace(/\.b\d+$/, '');
    const { rows } = await db.query<{ id: string; source: string }>(
      `insert into users.users (username, ${userColumns.join(', ')})
       select $3, ${userColumns.join(', ')} from users.users where tenant = $1 and lower(username) = $2
       on conflict (tenant, lower(username)) do nothing
       returning id, (select id from users.users where tenant = $1 and lower(username) = $2) as source`,
      [user.tenant, demo, user.username],
    );
    if (!rows[0]) continue;
    created++;
    // The case service's copy of who may be assigned cases (kept by the user service's events).
    await db.query(
      `insert into cases.assignees (id, tenant_id, username, fname, lname, role_id, is_active)
       select $1, tenant_id, $3, fname, lname, role_id, is_active from cases.assignees where id = $2
       on conflict (id) do nothing`,
      [rows[0].id, rows[0].source, user.username],
    );
    for (const g of grants) {
      if (!g.columns.length) continue;
      await db.query(
        `insert into users.${g.table} (user_id, ${g.columns.join(', ')})
         select $1, ${g.columns.join(', ')} from users.${g.table} where user_id = $2`,
        [rows[0].id, rows[0].source],
      );
    }
  }
  return created;
}

import type { SavedView, SavedViewList } from '@portal/contracts';
import type { Queryable } from '@portal/core';

/** Whose views: the effective user of the call, with the merchant whose shared views they see. */
export interface ViewOwner {
  tenant: string;
  userId: number;
  merchantId: number;
}

interface ViewRow {
  id: string;
  list: SavedViewList;
  path: string;
  name: string;
  query: string;
  shared: boolean;
  owner_id: string;
  owner_name: string;
  created_at: Date;
}

const SELECT = `select v.id, v.list, v.path, v.name, v.query, v.shared, v.user_id as owner_id,
       coalesce(nullif(trim(u.fname || ' ' || u.lname), ''), u.username) as owner_name, v.created_at
  from users.saved_views v
  join users.users u on u.id = v.user_id and u.tenant = v.tenant`;

function toView(r: ViewRow, me: number): SavedView {
  return {
    id: Number(r.id),
    list: r.list,
    path: r.path,
    name: r.name,
    query: r.query,
    shared: r.shared,
    owner: { id: Number(r.owner_id), name: r.owner_name },
    is_owner: Number(r.owner_id) === me,
    created_at: new Date(r.created_at).toISOString(),
  };
}

/** The user's own views of a list and the views shared by other users of the same merchant (same tenant). */
export async function listViews(db: Queryable, who: ViewOwner, list: SavedViewList): Promise<SavedView[]> {
  const { rows } = await db.query<ViewRow>(
    `${SELECT}
     where v.tenant = $1 and v.list = $2
       and (v.user_id = $3 or (v.shared and u.merchant_id = $4 and u.status_id = 1))
     order by (v.user_id = $3) desc, lower(v.name), v.id`,
    [who.tenant, list, who.userId, who.merchantId],
  );
  return rows.map((r) => toView(r, who.userId));
}

/** One view the user owns, or null (another user's view is as unknown as a missing one). */
export async function findOwnView(db: Queryable, who: ViewOwner, id: number): Promise<SavedView | null> {
  const { rows } = await db.query<ViewRow>(`${SELECT} where v.tenant = $1 and v.user_id = $2 and v.id = $3`, [
    who.tenant,
    who.userId,
    id,
  ]);
  return rows[0] ? toView(rows[0], who.userId) : null;
}

export async function countOwnViews(db: Queryable, who: ViewOwner, list: SavedViewList): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from users.saved_views where tenant = $1 and user_id = $2 and list = $3`,
    [who.tenant, who.userId, list],
  );
  return rows[0]?.n ?? 0;
}

export async function nameTaken(
  db: Queryable,
  who: ViewOwner,
  list: SavedViewList,
  name: string,
  exceptId = 0,
): Promise<boolean> {
  const { rows } = await db.query(
    `select 1 from users.saved_views
      where tenant = $1 and user_id = $2 and list = $3 and lower(name) = lower($4) and id <> $5`,
    [who.tenant, who.userId, list, name, exceptId],
  );
  return rows.length > 0;
}

export async function insertView(
  db: Queryable,
  who: ViewOwner,
  view: { list: SavedViewList; path: string; name: string; query: string; shared: boolean },
): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `insert into users.saved_views (tenant, user_id, list, path, name, query, shared)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [who.tenant, who.userId, view.list, view.path, view.name, view.query, view.shared],
  );
  return Number(rows[0]!.id);
}

export async function updateView(
  db: Queryable,
  who: ViewOwner,
  id: number,
  change: { name?: string; shared?: boolean },
): Promise<void> {
  await db.query(
    `update users.saved_views set name = coalesce($4, name), shared = coalesce($5, shared), updated_at = now()
      where tenant = $1 and user_id = $2 and id = $3`,
    [who.tenant, who.userId, id, change.name ?? null, change.shared ?? null],
  );
}

export async function deleteView(db: Queryable, who: ViewOwner, id: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `delete from users.saved_views where tenant = $1 and user_id = $2 and id = $3`,
    [who.tenant, who.userId, id],
  );
  return rowCount > 0;
}

import type { MerchantTree, MerchantTreeNode, MerchantTreeQuery } from '@portal/contracts';
import { badRequest, containsPattern, type Queryable } from '@portal/core';
import { subtreeIds, type Scope } from '../scope/scope';
import { inScope } from './access';

/**
 * The merchant tree of spec 3 §2 and §7, lazily: a page holds 20 merchants with
 * their child and MID counts, never their subtrees. Opening a node pages its
 * children (`parent_id`); a search answers only the branches from the root
 * down to the page's matches. Every query reads an index range of one parent
 * or the matches' ancestors, not the subtree below the root.
 */

interface Row {
  id: number;
  parent_id: number | null;
  business_name: string;
  alias: string | null;
  status_id: number;
  child_count: number;
  mid_count: number;
}

type Node = Omit<MerchantTreeNode, 'match' | 'children'>;

/** Positional parameters of one statement. */
class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/**
 * The name order: the ICU collation of migration 023 (case and accents ignored, as the
 * Intl.Collator('en', { sensitivity: 'base' }) before it), ties by id; index
 * merchants_tenant_parent_name serves it for one parent.
 */
const order = (dir: 'asc' | 'desc', a = 'm') =>
  `${a}.business_name collate cases.merchant_name ${dir}, ${a}.id ${dir}`;

/** Node columns of `m` (tenant = $1): direct children and the MIDs the scope sees, both index-only counts. */
function nodeColumns(scope: Scope, p: Params): string {
  let midFilter = '';
  if (scope.midsAllowed !== null) midFilter += ` and mi.id = any(${p.add(scope.midsAllowed)}::bigint[])`;
  if (scope.midsExcluded.length) midFilter += ` and mi.id <> all(${p.add(scope.midsExcluded)}::bigint[])`;
  return `m.id, m.parent_id, m.business_name, m.alias, m.status_id,
    (select count(*) from cases.merchants c where c.tenant_id = $1 and c.parent_id = m.id)::int as child_count,
    (select count(*) from cases.mids mi where mi.tenant_id = $1 and mi.merchant_id = m.id${midFilter})::int as mid_count`;
}

const toNode = (r: Row): Node => ({
  id: Number(r.id),
  label: r.business_name,
  alias: r.alias,
  parentId: r.parent_id === null ? null : Number(r.parent_id),
  status: { id: r.status_id },
  child_count: r.child_count,
  has_children: r.child_count > 0,
  mid_count: r.mid_count,
});

async function loadNode(db: Queryable, scope: Scope, id: number): Promise<Row | undefined> {
  const p = new Params();
  p.add(scope.tenant);
  const cols = nodeColumns(scope, p);
  const { rows } = await db.query<Row>(
    `select ${cols} from cases.merchants m where m.tenant_id = $1 and m.id = ${p.add(id)}`,
    p.values,
  );
  return rows[0];
}

/** One page of a merchant's children in name order (the page first, then its counts). */
async function childPage(
  db: Queryable,
  scope: Scope,
  parentId: number,
  dir: 'asc' | 'desc',
  start: number,
  limit: number,
): Promise<Row[]> {
  const p = new Params();
  p.add(scope.tenant);
  const cols = nodeColumns(scope, p);
  const { rows } = await db.query<Row>(
    `select ${cols} from (
       select * from cases.merchants m where m.tenant_id = $1 and m.parent_id = ${p.add(parentId)}
       order by ${order(dir)} limit ${p.add(limit)} offset ${p.add(start)}
     ) m order by ${order(dir)}`,
    p.values,
  );
  return rows;
}

/**
 * The given merchants and their ancestors below `rootId`, in name order. The walk stops at the
 * root, so a merchant outside the root's subtree ends at a top node whose parent is not the root.
 */
async function withAncestors(
  db: Queryable,
  scope: Scope,
  ids: number[],
  rootId: number,
  dir: 'asc' | 'desc',
): Promise<Row[]> {
  const p = new Params();
  p.add(scope.tenant);
  const cols = nodeColumns(scope, p);
  const { rows } = await db.query<Row>(
    // One primary-key lookup per step (LIMIT 1 keeps the planner from hashing the whole table).
    `with recursive up(id, parent_id) as (
       select id, parent_id from cases.merchants where tenant_id = $1 and id = any(${p.add(ids)}::bigint[])
       union
       select a.id, a.parent_id from up cross join lateral (
         select m.id, m.parent_id from cases.merchants m where m.tenant_id = $1 and m.id = up.parent_id limit 1
       ) a where up.parent_id <> ${p.add(rootId)}
     ) select ${cols} from cases.merchants m where m.tenant_id = $1 and m.id = any(array(select id from up))
     order by ${order(dir)}`,
    p.values,
  );
  return rows;
}

/** Nests rows (in name order) under the root: each keeps its order among its siblings. */
function branches(rows: Row[], rootId: number, matches: Set<number>): MerchantTreeNode[] {
  const byId = new Map<number, MerchantTreeNode>();
  for (const r of rows)
    byId.set(Number(r.id), { ...toNode(r), match: matches.has(Number(r.id)), children: [] });
  const top: MerchantTreeNode[] = [];
  for (const n of byId.values()) {
    if (n.parentId === rootId) top.push(n);
    else if (n.parentId !== null) byId.get(n.parentId)?.children.push(n);
  }
  return top;
}

/**
 * The SQL condition "below the root" for a search, cheapest first: the caller's own subtree is
 * already resolved in the scope; a tenant's only root holds every other merchant; else the
 * subtree's ids (an arbitrary merchant_id deep in the tree: a small subtree).
 */
async function belowRoot(db: Queryable, scope: Scope, root: Row, caller: number | null, p: Params) {
  const rootId = Number(root.id);
  if (scope.merchantIds !== null && rootId === caller)
    return ` and m.id = any(${p.add(scope.merchantIds)}::bigint[])`;
  if (root.parent_id === null) {
    const other = await db.query(
      `select 1 from cases.merchants where tenant_id = $1 and parent_id is null and id <> $2 limit 1`,
      [scope.tenant, rootId],
    );
    if (!other.rows.length) return '';
  }
  return ` and m.id = any(${p.add(await subtreeIds(db, scope.tenant, rootId))}::bigint[])`;
}

/** Name search below the root: one page of matches in name order, with the branches down to them. */
async function searchPage(
  db: Queryable,
  scope: Scope,
  root: Row,
  caller: number | null,
  text: string,
  dir: 'asc' | 'desc',
  start: number,
  limit: number,
): Promise<{ data: MerchantTreeNode[]; total: number }> {
  const rootId = Number(root.id);
  const p = new Params();
  p.add(scope.tenant);
  const pattern = p.add(containsPattern(text));
  // Name or alias (trigram indexes of migration 023), or the merchant id typed in.
  const byId = /^\d{1,15}$/.test(text) ? ` or m.id = ${p.add(Number(text))}` : '';
  const notRoot = `m.id <> ${p.add(rootId)}`;
  const below = await belowRoot(db, scope, root, caller, p);
  const where = `m.tenant_id = $1 and ${notRoot}
    and (m.business_name ilike ${pattern} or m.alias ilike ${pattern}${byId})${below}`;
  const n = p.values.length;
  const [page, count] = await Promise.all([
    db.query<{ id: number }>(
      `select m.id from cases.merchants m where ${where} order by ${order(dir)} limit $${n + 1} offset $${n + 2}`,
      [...p.values, limit, start],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from cases.merchants m where ${where}`, p.values),
  ]);
  const ids = page.rows.map((r) => Number(r.id));
  const rows = ids.length ? await withAncestors(db, scope, ids, rootId, dir) : [];
  return { data: branches(rows, rootId, new Set(ids)), total: Number(count.rows[0]?.n ?? 0) };
}

export async function merchantTree(
  db: Queryable,
  scope: Scope,
  q: MerchantTreeQuery,
  callerMerchantId: number | null,
): Promise<MerchantTree> {
  const tenant = scope.tenant;
  const dir = q.sort_order === 'desc' ? 'desc' : 'asc';
  const start = q.start ?? 0;
  const limit = q.limit ?? 20;
  const text = q.search?.trim() ?? '';
  if (q.parent_id !== undefined && (text || q.search_merchant_id !== undefined))
    throw badRequest('parent_id: cannot be combined with search or search_merchant_id.');

  let rootId = q.parent_id ?? q.merchant_id ?? callerMerchantId;
  if (rootId === null || rootId === undefined) {
    const { rows } = await db.query<{ id: number }>(
      `select id from cases.merchants where tenant_id = $1 and parent_id is null order by id limit 1`,
      [tenant],
    );
    if (!rows[0]) throw badRequest('merchant_id: no root merchant.');
    rootId = Number(rows[0].id);
  }
  const field = q.parent_id !== undefined ? 'parent_id' : 'merchant_id';
  const root = inScope(scope, rootId) ? await loadNode(db, scope, rootId) : undefined;
  if (!root) throw badRequest(`${field}: merchant ${rootId} not found.`);
  const answer = (data: MerchantTreeNode[], total: number, path: number[] = []): MerchantTree => ({
    root: toNode(root),
    data,
    path,
    pagination: { start, limit, total },
  });

  const target = q.search_merchant_id;
  if (target !== undefined && target !== rootId) {
    // mids_tile_clicked: only the branch holding that merchant, with the path to it.
    const rows = await withAncestors(db, scope, [target], rootId, dir);
    const top = rows.find((r) => r.parent_id !== null && Number(r.parent_id) === rootId);
    if (!rows.some((r) => Number(r.id) === target) || !top)
      throw badRequest(`search_merchant_id: merchant ${target} not found.`);
    const data = branches(rows, rootId, new Set([target]));
    const path = [rootId];
    for (let n: MerchantTreeNode | undefined = data[0]; n; n = n.children[0]) path.push(n.id);
    return answer(data, 1, path);
  }
  if (text && target === undefined) {
    const { data, total } = await searchPage(db, scope, root, callerMerchantId, text, dir, start, limit);
    return answer(data, total);
  }
  const rows = await childPage(db, scope, rootId, dir, start, limit);
  const data = rows.map((r) => ({ ...toNode(r), match: false, children: [] }));
  return answer(data, root.child_count, target === rootId ? [rootId] : []);
}

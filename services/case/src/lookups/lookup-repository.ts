import type { LookupQuery } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { scopeConditions, type Scope } from '../scope/scope';

/** A reference list: its SELECT (aliased columns), searchable expressions and order. */
interface LookupDef {
  from: string;
  columns: string;
  search: string[];
  order: string;
  /** Maps a SQL row to the API shape. */
  map?: (row: Record<string, unknown>) => unknown;
  /** Extra filters of this lookup. */
  filters?: (q: LookupQuery, p: (v: unknown) => string) => string[];
}

const LOOKUPS = {
  countries: {
    from: 'cases.countries t',
    columns: 't.id, t.code, t.name, t.number_code',
    search: ['t.name', 't.code'],
    order: 't.name',
  },
  processors: {
    from: 'cases.processors t',
    columns: 't.id, t.name, t.alias',
    search: ['t.name', 't.alias'],
    order: 't.name',
  },
  rc: {
    from: 'cases.reason_codes t join cases.card_types ct on ct.id = t.card_type_id join cases.reason_code_categories cat on cat.id = t.category_id',
    columns: `t.id, t.code, ct.name || ' - ' || t.code as name, t.description, t.is_fraud, ct.id as card_type_id, ct.name as card_type_name,
      cat.id as category_id, cat.name as category_name`,
    search: ['t.code', 't.description', 'ct.name'],
    order: 'ct.id, t.code',
    map: (r: Record<string, unknown>) => ({
      id: r.id,
      code: r.code,
      name: r.name,
      description: r.description,
      is_fraud: r.is_fraud,
      card_type: { id: r.card_type_id, name: r.card_type_name },
      category: { id: r.category_id, name: r.category_name },
    }),
    filters: (q: LookupQuery, p: (v: unknown) => string) => [
      ...(q.is_fraud === undefined ? [] : [`t.is_fraud = ${p(q.is_fraud === 1)}`]),
      ...(q.card_type_id === undefined ? [] : [`t.card_type_id = ${p(q.card_type_id)}`]),
    ],
  },
  'rc-categories': {
    from: 'cases.reason_code_categories t',
    columns: 't.id, t.name',
    search: ['t.name'],
    order: 't.id',
  },
  cycles: { from: 'cases.cycles t', columns: 't.id, t.name, t.alias', search: ['t.name'], order: 't.id' },
  currencies: {
    from: 'cases.currencies t',
    columns: 't.id, t.currency, t.code, t.iso',
    search: ['t.currency', 't.code'],
    order: 't.id',
  },
  cctypes: {
    from: 'cases.card_types t',
    columns: 't.id, t.name, t.alias',
    search: ['t.name'],
    order: 't.id',
  },
  'status-groups': {
    from: 'cases.status_groups t',
    columns: 't.id, t.name, t.alias',
    search: ['t.name'],
    order: 't.id',
  },
  statuses: {
    from: 'cases.statuses t',
    columns: 't.id, t.name, t.status_group_id',
    search: ['t.name'],
    order: 't.id',
  },
  verdicts: { from: 'cases.verdicts t', columns: 't.id, t.name', search: ['t.name'], order: 't.id' },
  'service-levels': {
    from: 'cases.service_levels t',
    columns: 't.id, t.name',
    search: ['t.name'],
    order: 't.id',
  },
  sources: {
    from: 'cases.sources t',
    columns: 't.id, t.code, t.name',
    search: ['t.name', 't.code'],
    order: 't.id',
  },
  deflectors: {
    from: 'cases.deflectors t',
    columns: 't.id, t.name, t.alias',
    search: ['t.name', 't.alias'],
    order: 't.id',
  },
} satisfies Record<string, LookupDef>;

export type LookupName = keyof typeof LOOKUPS;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

export interface Page<T> {
  data: T[];
  pagination: { total: number; limit: number; start: number };
}

async function page(
  db: Queryable,
  def: LookupDef,
  conditions: string[],
  params: unknown[],
  q: LookupQuery,
): Promise<Page<unknown>> {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  conditions.push(...(def.filters?.(q, p) ?? []));
  const search = q.search?.trim();
  if (search) {
    const term = p(`%${escapeLike(search)}%`);
    conditions.push(`(${def.search.map((s) => `${s} ilike ${term}`).join(' or ')})`);
  }
  const where = conditions.length ? `where ${conditions.join(' and ')}` : '';
  // t.id breaks ties so that paging (the advanced search's selects ask 5 at a time) never repeats or skips a row.
  const order = /\bt\.id\b/.test(def.order) ? def.order : `${def.order}, t.id`;
  const limit = q.limit ?? 999;
  const start = q.start ?? 0;
  const [rows, count] = await Promise.all([
    limit === 0
      ? Promise.resolve({ rows: [] as Record<string, unknown>[] })
      : db.query<Record<string, unknown>>(
          `select ${def.columns} from ${def.from} ${where} order by ${order} limit ${p(limit)} offset ${p(start)}`,
          params,
        ),
    db.query<{ n: number }>(
      `select count(*)::int as n from ${def.from} ${where}`,
      params.slice(0, params.length - (limit === 0 ? 0 : 2)),
    ),
  ]);
  return {
    data: rows.rows.map((r) => (def.map ? def.map(r) : r)),
    pagination: { total: Number(count.rows[0]?.n ?? 0), limit, start },
  };
}

export function listLookup(db: Queryable, name: LookupName, q: LookupQuery): Promise<Page<unknown>> {
  return page(db, LOOKUPS[name], [], [], q);
}

/** MID descriptors in the caller's scope (tenant-owned, unlike the reference lists). */
export function listDescriptors(db: Queryable, scope: Scope, q: LookupQuery): Promise<Page<unknown>> {
  const params: unknown[] = [];
  const conditions = scopeConditions(scope, 'mi', params).map((c) => c.replace('mi.mid_id', 'mi.id'));
  return page(
    db,
    {
      from: 'cases.descriptors t join cases.mids mi on mi.id = t.mid_id',
      columns: 't.id, t.descriptor, t.mid_id, mi.mid',
      search: ['t.descriptor', 'mi.mid'],
      order: 't.descriptor, t.id',
    },
    conditions,
    params,
    q,
  );
}

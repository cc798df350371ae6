import type { Queryable } from '@portal/core';

/**
 * The reference lists (migration 001) as maps, loaded once per process: case
 * rows carry lookup ids and get their labels here, so list queries join only
 * the tenant tables (a 16-way join cost more to plan than to run).
 */
export interface Reference {
  cycles: Map<number, string>;
  cardTypes: Map<number, string>;
  reasonCodes: Map<number, { code: string; description: string; category: string }>;
  currencies: Map<number, string>;
  statuses: Map<number, string>;
  statusGroups: Map<number, string>;
  verdicts: Map<number, string>;
  processors: Map<number, string>;
  sources: Map<number, string>;
}

let cached: Promise<Reference> | undefined;

async function load(db: Queryable): Promise<Reference> {
  const pairs = async (sql: string) =>
    new Map((await db.query<{ id: number; name: string }>(sql)).rows.map((r) => [r.id, r.name]));
  const [cycles, cardTypes, currencies, statuses, statusGroups, verdicts, processors, sources, rc] =
    await Promise.all([
      pairs('select id, name from cases.cycles'),
      pairs('select id, name from cases.card_types'),
      pairs('select id, code as name from cases.currencies'),
      pairs('select id, name from cases.statuses'),
      pairs('select id, name from cases.status_groups'),
      pairs('select id, name from cases.verdicts'),
      pairs('select id, name from cases.processors'),
      pairs('select id, name from cases.sources'),
      db.query<{ id: number; code: string; description: string; category: string }>(
        'select r.id, r.code, r.description, c.name as category from cases.reason_codes r join cases.reason_code_categories c on c.id = r.category_id',
      ),
    ]);
  return {
    cycles,
    cardTypes,
    currencies,
    statuses,
    statusGroups,
    verdicts,
    processors,
    sources,
    reasonCodes: new Map(
      rc.rows.map((r) => [r.id, { code: r.code, description: r.description, category: r.category }]),
    ),
  };
}

export function reference(db: Queryable): Promise<Reference> {
  cached ??= load(db).catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

import { DEFLECTOR_SERVICE_DESK, DEFLECTOR_STATUS, type DeflectorChoice } from '@portal/contracts';
import { badRequest, type Queryable } from '@portal/core';

/**
 * Deflector switches (spec 3 §4): a deflector switched on starts at Pending
 * Activation (2) and keeps its status while it stays on; switched off it is
 * removed, except that an edit may not switch off one that is pending or
 * active (the service desk handles that). Returns the new id -> status map.
 */
export async function nextDeflectors(
  db: Queryable,
  current: Map<number, number>,
  wanted: readonly DeflectorChoice[],
  editing: boolean,
): Promise<Map<number, number>> {
  const ids = [...new Set(wanted.map((d) => d.id))];
  if (ids.length) {
    const { rows } = await db.query<{ id: number }>(
      `select id from cases.deflectors where id = any($1::int[])`,
      [ids],
    );
    const known = new Set(rows.map((r) => Number(r.id)));
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined) throw badRequest(`deflectors: unknown deflector ${unknown}.`);
  }
  const next = new Map<number, number>();
  for (const id of ids) {
    const status = current.get(id);
    // Switched on: a pending or active deflector keeps its status, any other starts over at pending.
    next.set(
      id,
      status === DEFLECTOR_STATUS.pending || status === DEFLECTOR_STATUS.active
        ? status
        : DEFLECTOR_STATUS.pending,
    );
  }
  if (editing) {
    for (const [id, status] of current) {
      if (!next.has(id) && (status === DEFLECTOR_STATUS.pending || status === DEFLECTOR_STATUS.active))
        throw badRequest(DEFLECTOR_SERVICE_DESK, { deflector_id: id });
    }
  }
  return next;
}

export const describeDeflectors = (m: Map<number, number>): string =>
  [...m.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([id, s]) => `${id}:${s}`)
    .join(',');

import type { DomainEvent, PublishedLiveEvent } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import type { EventBatch, JobContext } from '@portal/jobs';

/**
 * Live updates of domain events (issue 21). The dispatcher runs only once the
 * write that emitted the events has committed (the outbox job is part of that
 * transaction), so nothing uncommitted is ever published. Each event is
 * published with what the gateway filters on: the merchant's ancestors (a
 * user whose merchant is on that path sees it) and the case's or alert's MID
 * (for users limited to some MIDs). Failures are logged, never thrown: live
 * updates are hints, webhook deliveries are what must not be lost.
 */

// The hierarchy, cases and alerts belong to the case service; the worker reads what it declares of them (cases_api).
const MERCHANT_PATHS = `
  with recursive up(root, id, parent_id, depth) as (
    select id, id, parent_id, 0 from cases_api.merchants where tenant_id = $1 and id = any($2::bigint[])
    union all
    select up.root, m.id, m.parent_id, up.depth + 1
      from cases_api.merchants m join up on m.id = up.parent_id where m.tenant_id = $1
  )
  select root, array_agg(id order by depth desc) as path from up group by root`;

const CASE_MIDS = `
  select c.id, c.mid_id, m.mid from cases_api.cases c join cases_api.mids m on m.tenant_id = $1 and m.id = c.mid_id
   where c.tenant_id = $1 and c.id = any($2::bigint[])`;

const ALERT_MIDS = `
  select a.id, a.mid_id, m.mid from cases_api.alerts a
    left join cases_api.mids m on m.tenant_id = $1 and m.id = a.mid_id
   where a.tenant_id = $1 and a.id = any($2::bigint[])`;

type MidRow = { id: string; mid_id: string | null; mid: string | null };

const idOf = (value: unknown): number | undefined => {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};
const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value.slice(0, 100) : undefined;

async function midsOf(db: Queryable, sql: string, tenant: string, ids: number[]) {
  const map = new Map<number, { mid_id?: number; mid?: string }>();
  if (!ids.length) return map;
  const { rows } = await db.query<MidRow>(sql, [tenant, ids]);
  for (const r of rows)
    map.set(Number(r.id), { mid_id: idOf(r.mid_id), mid: r.mid === null ? undefined : r.mid });
  return map;
}

/** The published message of each event (without scope data the gateway cannot check, nothing is published). */
async function liveEventsOf(
  db: Queryable,
  tenant: string,
  events: readonly DomainEvent[],
): Promise<PublishedLiveEvent[]> {
  const merchants = [...new Set(events.map((e) => e.merchant_id))];
  const caseIds = [...new Set(events.map((e) => idOf(e.data.case_id)).filter((n) => n !== undefined))];
  const alertIds = [...new Set(events.map((e) => idOf(e.data.alert_id)).filter((n) => n !== undefined))];
  const [paths, caseMids, alertMids] = await Promise.all([
    db.query<{ root: string; path: string[] }>(MERCHANT_PATHS, [tenant, merchants]),
    midsOf(db, CASE_MIDS, tenant, caseIds),
    midsOf(db, ALERT_MIDS, tenant, alertIds),
  ]);
  const pathOf = new Map(paths.rows.map((r) => [Number(r.root), r.path.map(Number)]));
  const out: PublishedLiveEvent[] = [];
  for (const e of events) {
    const merchant_path = pathOf.get(e.merchant_id);
    if (!merchant_path) continue;
    const case_id = idOf(e.data.case_id);
    const alert_id = idOf(e.data.alert_id);
    const mid =
      (alert_id !== undefined ? alertMids.get(alert_id) : undefined) ??
      (case_id !== undefined ? caseMids.get(case_id) : undefined) ??
      {};
    const message: PublishedLiveEvent = {
      kind: 'event',
      type: e.type,
      merchant_id: e.merchant_id,
      merchant_path,
    };
    if (case_id !== undefined) message.case_id = case_id;
    if (alert_id !== undefined) message.alert_id = alert_id;
    const ert_id = idOf(e.data.ert_id);
    if (ert_id !== undefined) message.ert_id = ert_id;
    const status = textOf(e.data.status);
    if (status !== undefined) message.status = status;
    const previous = textOf(e.data.previous_status);
    if (previous !== undefined) message.previous_status = previous;
    if (mid.mid_id !== undefined) message.mid_id = mid.mid_id;
    if (mid.mid !== undefined) message.mid = mid.mid;
    out.push(message);
  }
  return out;
}

/** Publishes a dispatched batch to the tenant's live channel; never throws. */
export async function publishLiveEvents(ctx: JobContext<EventBatch>): Promise<void> {
  const live = ctx.live;
  if (!live) return;
  try {
    for (const message of await liveEventsOf(ctx.db, ctx.tenant, ctx.data.events))
      live.publish(ctx.tenant, message);
  } catch (err) {
    ctx.log.warn({ err }, 'live events not published');
  }
}

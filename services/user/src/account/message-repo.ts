import type { PortalMessageData, TrackingEventBody } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import type { Static } from '@sinclair/typebox';

/** The tenant's active messages for a role that the user has not acted on yet, oldest first. */
export async function openMessages(
  db: Queryable,
  tenant: string,
  role: string,
  userId: number,
): Promise<PortalMessageData[]> {
  const { rows } = await db.query<{
    id: number;
    header: string;
    sub_header: string;
    message: string;
    show_on: string[];
    actions: unknown;
  }>(
    `select m.id, m.header, m.sub_header, m.message, m.show_on, m.actions from users.messages m
    where m.tenant = $1 and m.is_active and (m.roles is null or $2 = any(m.roles))
      and not exists (select 1 from users.message_actions a where a.message_id = m.id and a.user_id = $3)
    order by m.id`,
    [tenant, role, userId],
  );
  return rows.map((r) => ({
    ...r,
    actions: (typeof r.actions === 'string'
      ? JSON.parse(r.actions)
      : r.actions) as PortalMessageData['actions'],
  }));
}

export async function messageExists(db: Queryable, tenant: string, id: number): Promise<boolean> {
  const { rows } = await db.query(`select 1 from users.messages where tenant = $1 and id = $2`, [tenant, id]);
  return rows.length > 0;
}

/** The user's action on a message (the last one counts). */
export async function saveMessageAction(
  db: Queryable,
  messageId: number,
  userId: number,
  action: string,
): Promise<void> {
  await db.query(
    `insert into users.message_actions (message_id, user_id, action) values ($1, $2, $3)
     on conflict (message_id, user_id) do update set action = $3, created_at = now()`,
    [messageId, userId, action],
  );
}

/** A usage event the web app reports, with who did it (and who acted as them). */
export async function recordTrackingEvent(
  db: Queryable,
  by: { tenant: string; userId: number | null; actorId: number | null },
  e: Static<typeof TrackingEventBody>,
): Promise<void> {
  await db.query(
    `insert into users.events (tenant, user_id, actor_id, key, case_id, event_name, action, message) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      by.tenant,
      by.userId,
      by.actorId,
      e.key,
      e.case_id ?? null,
      e.event_name,
      e.action ?? null,
      e.message ?? null,
    ],
  );
}

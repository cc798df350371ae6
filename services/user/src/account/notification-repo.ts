import type { Queryable } from '@portal/core';

/** Every mail notification with the user's choice (the type's default where the user made none). */
export async function notificationSettings(db: Queryable, userId: number) {
  const { rows } = await db.query<{ id: number; name: string; alias: string; is_enabled: boolean }>(
    `select n.id, n.name, n.alias, coalesce(un.is_enabled, n.default_enabled) as is_enabled
       from users.notification_types n left join users.user_notifications un on un.notification_id = n.id and un.user_id = $1
      order by n.id`,
    [userId],
  );
  return rows;
}

export async function notificationTypeExists(db: Queryable, id: number): Promise<boolean> {
  const { rows } = await db.query(`select 1 from users.notification_types where id = $1`, [id]);
  return rows.length > 0;
}

export async function saveNotification(
  db: Queryable,
  userId: number,
  notificationId: number,
  enabled: boolean,
): Promise<void> {
  await db.query(
    `insert into users.user_notifications (user_id, notification_id, is_enabled) values ($1, $2, $3)
     on conflict (user_id, notification_id) do update set is_enabled = $3, updated_at = now()`,
    [userId, notificationId, enabled],
  );
}

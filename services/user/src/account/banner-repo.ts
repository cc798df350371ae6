import type { Queryable } from '@portal/core';

export async function isBannerClosed(db: Queryable, userId: number, page: string): Promise<boolean> {
  const { rows } = await db.query(`select 1 from users.banner_dismissals where user_id = $1 and page = $2`, [
    userId,
    page,
  ]);
  return rows.length > 0;
}

export async function closeBanner(db: Queryable, userId: number, page: string): Promise<void> {
  await db.query(
    `insert into users.banner_dismissals (user_id, page) values ($1, $2) on conflict (user_id, page) do update set closed_at = now()`,
    [userId, page],
  );
}

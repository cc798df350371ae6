import type { FastifyInstance } from 'fastify';
import { purgeSaml } from './saml/store';

/** Deletes what has expired (refresh tokens a day after expiry, used SSO token ids, stale throttle rows, old challenges and codes). */
export async function purgeExpired(app: FastifyInstance): Promise<void> {
  const { db } = app.deps;
  await db.query(`delete from users.refresh_tokens where expires_at < now() - interval '1 day'`);
  await db.query(`delete from users.sso_token_uses where expires_at < now()`);
  await db.query(`delete from users.challenge_sessions where expires_at < now() - interval '1 day'`);
  await db.query(`delete from users.password_reset_codes where expires_at < now() - interval '7 days'`);
  await db.query(
    `delete from users.login_throttle where updated_at < now() - interval '1 day' and (locked_until is null or locked_until < now())`,
  );
  await db.query(
    `delete from users.login_throttle_addr where updated_at < now() - interval '1 day' and (locked_until is null or locked_until < now())`,
  );
  await db.query(`delete from users.lock_notices where sent_at < now() - interval '1 day'`);
  await purgeSaml(db);
}

/** Hourly housekeeping; every replica may run it (the deletes are idempotent). */
export function scheduleHousekeeping(app: FastifyInstance): void {
  const run = () =>
    purgeExpired(app).catch((error: unknown) => app.log.warn({ err: error }, 'user housekeeping failed'));
  const timer = setInterval(run, 60 * 60 * 1000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

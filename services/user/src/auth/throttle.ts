import type { Queryable } from '@portal/core';

/**
 * Sign-in throttle (state in Postgres, so it holds across replicas). Keyed by
 * tenant + lower-cased username whether or not the account exists: unknown
 * and real usernames slow down and lock identically.
 *
 * Each attempt is counted before the password is checked (a success clears
 * it), so a burst of parallel guesses cannot slip past the limit:
 * attempts 1-4 are free, attempts 5-9 must each wait 1, 2, 4, 8, 16 s after
 * the previous one, the 10th locks the username for LOCK_SECONDS. An hour
 * without attempts starts the count again.
 */
export const THROTTLE = { slowAfter: 5, lockAfter: 10, lockSeconds: 15 * 60 } as const;

export const THROTTLE_MESSAGES = {
  wait: 'Too many failed sign-in attempts. Please wait a moment and try again.',
  locked:
    'Your account is temporarily locked after too many failed sign-in attempts. Please try again later.',
} as const;

export type ThrottleDecision = { ok: true } | { ok: false; reason: 'wait' | 'locked'; retryAfter: number };

export function throttleKey(username: string): string {
  return username.trim().toLowerCase();
}

export async function claimAttempt(
  db: Queryable,
  tenant: string,
  username: string,
): Promise<ThrottleDecision> {
  const key = throttleKey(username);
  const { rows } = await db.query<{ failures: number }>(
    `insert into users.login_throttle as t (tenant, username_key, failures, updated_at) values ($1, $2, 1, now())
     on conflict (tenant, username_key) do update set
       failures = (case when t.locked_until is not null or t.updated_at < now() - interval '1 hour' then 1 else t.failures + 1 end),
       next_allowed_at = case when (case when t.locked_until is not null or t.updated_at < now() - interval '1 hour' then 1 else t.failures + 1 end) >= $3 and (case when t.locked_until is not null or t.updated_at < now() - interval '1 hour' then 1 else t.failures + 1 end) < $4
                              then now() + make_interval(secs => power(2, (case when t.locked_until is not null or t.updated_at < now() - interval '1 hour' then 1 else t.failures + 1 end) - $3)) end,
       locked_until = case when (case when t.locked_until is not null or t.updated_at < now() - interval '1 hour' then 1 else t.failures + 1 end) >= $4 then now() + make_interval(secs => $5) end,
       updated_at = now()
     where (t.locked_until is null or t.locked_until <= now()) and (t.next_allowed_at is null or t.next_allowed_at <= now())
     returning t.failures`,
    [tenant, key, THROTTLE.slowAfter, THROTTLE.lockAfter, THROTTLE.lockSeconds],
  );
  if (rows.length) return { ok: true };
  const { rows: state } = await db.query<{ locked: boolean; retry: number }>(
    `select coalesce(locked_until > now(), false) as locked,
            ceil(extract(epoch from greatest(coalesce(locked_until, now()), coalesce(next_allowed_at, now())) - now()))::int as retry
       from users.login_throttle where tenant = $1 and username_key = $2`,
    [tenant, key],
  );
  const s = state[0];
  return { ok: false, reason: s?.locked ? 'locked' : 'wait', retryAfter: Math.max(1, s?.retry ?? 1) };
}

/** A successful sign-in forgets the failures. */
export async function clearAttempts(db: Queryable, tenant: string, username: string): Promise<void> {
  await db.query(`delete from users.login_throttle where tenant = $1 and username_key = $2`, [
    tenant,
    throttleKey(username),
  ]);
}

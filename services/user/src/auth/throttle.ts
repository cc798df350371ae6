import type { Queryable } from '@portal/core';

/**
 * Sign-in throttle (state in Postgres, so it holds across replicas), keyed by
 * tenant + lower-cased username + client address, whether or not the account
 * exists: unknown and real usernames slow down and lock identically, and
 * failures from one address never lock the owner out of their account from
 * another address (issue 20.7: ten wrong passwords used to lock `admin` for
 * everyone).
 *
 * Each attempt is counted before the password is checked (a success clears
 * it), so a burst of parallel guesses cannot slip past the limit:
 * attempts 1-4 are free, attempts 5-9 must each wait 1, 2, 4, 8, 16 s after
 * the previous one, the 10th locks that username for that address for
 * LOCK_SECONDS. An hour without attempts starts the count again.
 *
 * Per address across usernames (password spraying): every attempt from an
 * address counts, a success takes its own attempt back, and ADDRESS.lockAfter
 * attempts that failed within an hour lock the address for every username for
 * ADDRESS.lockSeconds. (An office behind one NAT address shares this cap: it
 * is set far above what people mistyping produce.)
 */
export const THROTTLE = { slowAfter: 5, lockAfter: 10, lockSeconds: 15 * 60 } as const;
const ADDRESS_THROTTLE = { lockAfter: 100, lockSeconds: 15 * 60 } as const;

export const THROTTLE_MESSAGES = {
  wait: 'Too many failed sign-in attempts. Please wait a moment and try again.',
  locked:
    'Sign-in is temporarily locked for your address after too many failed sign-in attempts. Please try again later.',
} as const;

type ThrottleDecision =
  | {
      ok: true;
      /** This attempt, if it fails, is the one that locks the username for the address: tell the owner. */
      locksOnFailure: boolean;
    }
  | { ok: false; reason: 'wait' | 'locked'; retryAfter: number };

function throttleKey(username: string): string {
  return username.trim().toLowerCase();
}

/** The failure count after this attempt (an hour of quiet or an ended lock start again). */
const NEXT = `(case when t.locked_until is not null or t.updated_at < now() - interval '1 hour' then 1 else t.failures + 1 end)`;

async function claimAddress(db: Queryable, tenant: string, ip: string): Promise<ThrottleDecision> {
  const { rows } = await db.query(
    `insert into users.login_throttle_addr as t (tenant, ip, failures, updated_at) values ($1, $2, 1, now())
     on conflict (tenant, ip) do update set
       failures = ${NEXT},
       locked_until = case when ${NEXT} >= $3 then now() + make_interval(secs => $4) end,
       updated_at = now()
     where t.locked_until is null or t.locked_until <= now()
     returning t.failures`,
    [tenant, ip, ADDRESS_THROTTLE.lockAfter, ADDRESS_THROTTLE.lockSeconds],
  );
  if (rows.length) return { ok: true, locksOnFailure: false };
  const { rows: state } = await db.query<{ retry: number }>(
    `select ceil(extract(epoch from locked_until - now()))::int as retry
       from users.login_throttle_addr where tenant = $1 and ip = $2`,
    [tenant, ip],
  );
  return { ok: false, reason: 'locked', retryAfter: Math.max(1, state[0]?.retry ?? 1) };
}

export async function claimAttempt(
  db: Queryable,
  tenant: string,
  username: string,
  ip: string,
): Promise<ThrottleDecision> {
  const address = await claimAddress(db, tenant, ip);
  if (!address.ok) return address;
  const key = throttleKey(username);
  const { rows } = await db.query<{ locks: boolean }>(
    `insert into users.login_throttle as t (tenant, username_key, ip, failures, updated_at) values ($1, $2, $3, 1, now())
     on conflict (tenant, username_key, ip) do update set
       failures = ${NEXT},
       next_allowed_at = case when ${NEXT} >= $4 and ${NEXT} < $5
                              then now() + make_interval(secs => power(2, ${NEXT} - $4)) end,
       locked_until = case when ${NEXT} >= $5 then now() + make_interval(secs => $6) end,
       updated_at = now()
     where (t.locked_until is null or t.locked_until <= now()) and (t.next_allowed_at is null or t.next_allowed_at <= now())
     returning t.locked_until is not null as locks`,
    [tenant, key, ip, THROTTLE.slowAfter, THROTTLE.lockAfter, THROTTLE.lockSeconds],
  );
  if (rows.length) return { ok: true, locksOnFailure: rows[0]!.locks };
  const { rows: state } = await db.query<{ locked: boolean; retry: number }>(
    `select coalesce(locked_until > now(), false) as locked,
            ceil(extract(epoch from greatest(coalesce(locked_until, now()), coalesce(next_allowed_at, now())) - now()))::int as retry
       from users.login_throttle where tenant = $1 and username_key = $2 and ip = $3`,
    [tenant, key, ip],
  );
  const s = state[0];
  return { ok: false, reason: s?.locked ? 'locked' : 'wait', retryAfter: Math.max(1, s?.retry ?? 1) };
}

/**
 * Forgets a username's failures. Given the address (a successful sign-in):
 * those of that address only (an attacker elsewhere keeps his count), and the
 * attempt is taken back from the address count (its other failures stay
 * counted). Without (unlock, password reset): those of every address.
 */
export async function clearAttempts(
  db: Queryable,
  tenant: string,
  username: string,
  ip?: string,
): Promise<void> {
  await db.query(
    `delete from users.login_throttle where tenant = $1 and username_key = $2 and ($3::text is null or ip = $3)`,
    [tenant, throttleKey(username), ip ?? null],
  );
  if (ip !== undefined)
    await db.query(
      `update users.login_throttle_addr set failures = greatest(failures - 1, 0) where tenant = $1 and ip = $2 and locked_until is null`,
      [tenant, ip],
    );
}

/**
 * True at most once an hour per username: the owner is mailed when sign-in
 * to their account gets locked for an address, not on every attempt nor for
 * every attacking address.
 */
export async function claimLockNotice(db: Queryable, tenant: string, username: string): Promise<boolean> {
  const { rows } = await db.query(
    `insert into users.lock_notices as n (tenant, username_key, sent_at) values ($1, $2, now())
     on conflict (tenant, username_key) do update set sent_at = now()
       where n.sent_at < now() - interval '1 hour'
     returning 1`,
    [tenant, throttleKey(username)],
  );
  return rows.length === 1;
}

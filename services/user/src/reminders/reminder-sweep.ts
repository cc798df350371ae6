import { isProviderStaff } from '@portal/contracts';
import type { Db, MailMessage, Queryable } from '@portal/core';
import { enqueueMail } from '@portal/jobs';
import { queueChatDigest } from '../webhooks/delivery-jobs';

/**
 * The day's digest goes out from 08:00 in each user's own time zone; a run
 * delayed by up to SEND_WINDOW hours still sends it, a later one leaves that
 * day out rather than mail at night.
 */
export const SEND_HOUR = 8;
const SEND_WINDOW = 4;
/** The 'Chargebacks expiring soon' e-mail notification setting (spec 3 Profile Settings). */
const SETTING = 'expiring_chargebacks';

export type Threshold = '5d' | '24h';

interface DueUser {
  id: number;
  tenant: string;
  email: string;
  fname: string;
  username: string;
  merchant_id: number;
  role: string;
  tz: string;
  local_date: string;
}

interface DueCase {
  id: number;
  business_name: string;
  date_due: string;
  threshold: Threshold;
}

/** Active users with the setting on, inside their local send window, without a digest for that local day. */
const DUE_USERS = `
  select u.id, u.tenant, u.email, u.fname, u.username, u.merchant_id, r.name as role,
         coalesce(u.time_zone, 'UTC') as tz,
         ($2::timestamptz at time zone coalesce(u.time_zone, 'UTC'))::date::text as local_date
    from users.users u
    join users.roles r on r.id = u.role_id
    join users.notification_types n on n.alias = '${SETTING}'
    left join users.user_notifications un on un.user_id = u.id and un.notification_id = n.id
   where u.tenant = $1 and u.status_id = 1 and u.email <> ''
     and coalesce(un.is_enabled, n.default_enabled)
     and extract(hour from $2::timestamptz at time zone coalesce(u.time_zone, 'UTC'))
         between ${SEND_HOUR} and ${SEND_HOUR + SEND_WINDOW - 1}
     and not exists (
       select 1 from users.reminder_digests d
        where d.user_id = u.id
          and d.local_date = ($2::timestamptz at time zone coalesce(u.time_zone, 'UTC'))::date)
   order by u.id`;

/**
 * Open cases (New, In Progress) of a user's scope whose deadline (the end of
 * the due day in the user's time zone) is within 5 days: provider staff get
 * the cases assigned to them, partner and merchant users those of their
 * merchant subtree, always within their MID permissions. The case data is
 * read through what the case service declares for other services (the
 * cases_api views, migration case/035), on the one database.
 */
const DUE_CASES = `
  with recursive sub(id) as (
    select m.id from cases_api.merchants m where m.tenant_id = $1 and m.id = $3 and not $5
    union all
    select m.id from cases_api.merchants m join sub on m.parent_id = sub.id where m.tenant_id = $1
  ), user_mid as (
    -- The user's MID permissions, as the case service's scope applies them: an entry names a MID by its
    -- number or id; an allow-list bounds the MIDs, excluded MIDs are left out.
    select mi.id as mid_id, not um.is_excluded as allowed
      from users.user_mids um
      join cases_api.mids mi on mi.tenant_id = $1 and (mi.mid = um.mid or mi.id::text = um.mid)
     where um.user_id = $6
  ), due as (
    select c.id, c.merchant_id, c.date_due, ((c.date_due + 1)::timestamp at time zone $4) as deadline
      from cases_api.cases c
     where c.tenant_id = $1 and c.status_group_id in (1, 2)
       and ((c.date_due + 1)::timestamp at time zone $4) > $2::timestamptz
       and ((c.date_due + 1)::timestamp at time zone $4) <= $2::timestamptz + interval '5 days'
       and case when $5 then c.assigned_user_id = $6 else c.merchant_id in (select id from sub) end
       and not exists (select 1 from user_mid um where not um.allowed and um.mid_id = c.mid_id)
       and (not exists (select 1 from users.user_mids um where um.user_id = $6 and not um.is_excluded)
            or exists (select 1 from user_mid um where um.allowed and um.mid_id = c.mid_id))
  )
  select due.id, m.business_name, due.date_due::text as date_due,
         case when due.deadline <= $2::timestamptz + interval '24 hours' then '24h' else '5d' end as threshold
    from due join cases_api.merchants m on m.tenant_id = $1 and m.id = due.merchant_id
   order by due.deadline, due.id`;

async function dueCases(db: Queryable, user: DueUser, now: Date): Promise<DueCase[]> {
  const staff = isProviderStaff([user.role]);
  const { rows } = await db.query<DueCase>(DUE_CASES, [
    user.tenant,
    now.toISOString(),
    user.merchant_id,
    user.tz,
    staff,
    user.id,
  ]);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

function digestMail(user: DueUser, cases: DueCase[]): MailMessage {
  const line = (c: DueCase) => `  Case ${c.id} - ${c.business_name} - due ${c.date_due}`;
  const soon = cases.filter((c) => c.threshold === '24h');
  const later = cases.filter((c) => c.threshold === '5d');
  const parts = [`Hello ${user.fname || user.username},`, ''];
  if (soon.length) parts.push('Due within 24 hours:', ...soon.map(line), '');
  if (later.length) parts.push('Due within 5 days:', ...later.map(line), '');
  parts.push(
    'Open each case in the portal to respond before its deadline.',
    'You receive this e-mail because "Chargebacks expiring soon" is on in your Profile Settings.',
  );
  return {
    to: user.email,
    subject: `Chargeback deadlines: ${cases.length} case${cases.length === 1 ? '' : 's'} due soon`,
    text: parts.join('\n'),
  };
}

/**
 * One user's digest: claimed for the local day, the new (case, threshold)
 * pairs recorded, and the mail queued (mail.send job), in one transaction: the
 * mail exists exactly when the pairs commit, and the worker sends it after the
 * commit, retrying a failed send (issue 28.1: no SMTP inside a transaction).
 * Two workers at once: the second finds the day claimed. Answers the cases
 * mailed.
 */
async function queueDigest(db: Db, user: DueUser, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const cases = await dueCases(tx, user, now);
    const claimed = await tx.query(
      `insert into users.reminder_digests (user_id, local_date, cases) values ($1, $2, 0)
       on conflict do nothing returning user_id`,
      [user.id, user.local_date],
    );
    if (!claimed.rows.length) return 0;
    // One statement for every pair: a partner's digest can name thousands of cases.
    const { rows: recorded } = await tx.query<{ case_id: number; threshold: Threshold }>(
      `insert into users.deadline_reminders (user_id, case_id, threshold, tenant)
       select $1, x.case_id, x.threshold, $4 from unnest($2::bigint[], $3::text[]) as x(case_id, threshold)
       on conflict do nothing returning case_id, threshold`,
      [user.id, cases.map((c) => c.id), cases.map((c) => c.threshold), user.tenant],
    );
    const isNew = new Set(recorded.map((r) => `${r.case_id}:${r.threshold}`));
    const fresh = cases.filter((c) => isNew.has(`${c.id}:${c.threshold}`));
    if (!fresh.length) return 0;
    await tx.query(`update users.reminder_digests set cases = $3 where user_id = $1 and local_date = $2`, [
      user.id,
      user.local_date,
      fresh.length,
    ]);
    await enqueueMail(tx, user.tenant, digestMail(user, fresh), 'deadline-digest');
    // The same digest to the Slack and Teams destinations this user added (issue 35.4).
    await queueChatDigest(tx, { ...user, merchant_id: Number(user.merchant_id) }, fresh, now);
    return fresh.length;
  });
}

/**
 * The hourly sweep of one tenant at `now` (a fixed clock in tests). Answers
 * users mailed and cases named; their mails are queued, sent by the worker.
 */
export async function sweepReminders(
  db: Db,
  tenant: string,
  now: Date,
): Promise<{ users: number; cases: number }> {
  const { rows } = await db.query<DueUser>(DUE_USERS, [tenant, now.toISOString()]);
  let users = 0;
  let cases = 0;
  for (const user of rows) {
    const named = await queueDigest(db, { ...user, id: Number(user.id) }, now);
    if (named) {
      users++;
      cases += named;
    }
  }
  return { users, cases };
}

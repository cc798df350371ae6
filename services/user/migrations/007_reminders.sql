-- Deadline reminders (issue 19): a daily e-mail at 08:00 in the user's time zone listing the open cases
-- of their scope due within 5 days and within 24 hours, each case and threshold mailed once.
do $migration$
begin

-- IANA name (e.g. 'America/New_York'); null reads as UTC.
alter table users.users add column time_zone text;

-- One digest per user and local day: a later hourly sweep of the same day finds it done.
create table users.reminder_digests (
  user_id bigint not null references users.users (id) on delete cascade,
  local_date date not null,
  cases integer not null,
  sent_at timestamptz not null default now(),
  primary key (user_id, local_date)
);

-- What was mailed: a case is named once per threshold ('5d', then '24h').
create table users.deadline_reminders (
  user_id bigint not null references users.users (id) on delete cascade,
  case_id bigint not null,
  threshold text not null check (threshold in ('5d', '24h')),
  tenant text not null,
  sent_at timestamptz not null default now(),
  primary key (user_id, case_id, threshold)
);

end
$migration$;

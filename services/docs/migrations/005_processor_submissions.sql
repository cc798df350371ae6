-- Evidence out to a processor (issue 32): what the transport job sent, and how it ended, per attempt.
-- The case's 'Stripe submission' panel reads it; nothing secret is kept (field names, never values;
-- the processor's file and dispute ids; the processor's error code and its words for a merchant).

-- A version saved as a draft at the processor ('draft': evidence staged, not submitted) or submitted.
alter table docs.representment_versions
  add column processor_mode text not null default 'submit' check (processor_mode in ('submit', 'draft'));

create table docs.processor_submissions (
  id bigserial primary key,
  tenant_id text not null,
  case_id bigint not null,
  version_id bigint,
  -- The transport job and its attempt: a retried attempt writes its own row, a repeated write of the
  -- same attempt changes nothing.
  job_id text not null,
  attempt integer not null,
  processor text not null,
  connection_id uuid,
  dispute_id text not null,
  mode text not null check (mode in ('submit', 'draft')),
  -- sent: the processor took it; refused: not sent (past due, closed) or refused for good; failed: a
  -- failure that is tried again (or was the last attempt: final).
  state text not null check (state in ('sent', 'refused', 'failed')),
  final boolean not null default true,
  fields text[] not null default '{}',
  file_id text,
  error_code text,
  error_status integer,
  error_message text,
  at timestamptz not null default now(),
  unique (job_id, attempt)
);
create index processor_submissions_case on docs.processor_submissions (tenant_id, case_id, id desc);

-- What screens show of a background job (pg-boss keeps its own queue tables in the pgboss schema).
-- id is the pg-boss job id; the row is written when the job is enqueued (in the caller's
-- transaction), when an attempt starts, on progress and when it ends.
create table jobs.job_status (
  id uuid primary key,
  kind text not null,
  tenant text not null,
  created_by integer,
  state text not null default 'queued' check (state in ('queued', 'running', 'done', 'failed')),
  progress smallint not null default 0 check (progress between 0 and 100),
  message text,
  error text,
  result jsonb,
  attempts integer not null default 0,
  max_attempts integer not null,
  singleton_key text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now()
);
create index job_status_tenant_created on jobs.job_status (tenant, created_at desc);
create index job_status_tenant_kind_created on jobs.job_status (tenant, kind, created_at desc);
-- At most one unfinished job per (tenant, kind, singleton key): enqueue answers the existing one.
create unique index job_status_singleton on jobs.job_status (tenant, kind, singleton_key)
  where singleton_key is not null and state in ('queued', 'running');

-- Steps of a job already applied (JobContext.once): a retried attempt skips them.
create table jobs.job_steps (
  job_id uuid not null,
  step text not null,
  result jsonb,
  done_at timestamptz not null default now(),
  primary key (job_id, step)
);

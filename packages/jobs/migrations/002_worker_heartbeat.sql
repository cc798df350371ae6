-- Liveness of job workers (JobWorker): each beats here every few seconds while it runs and deletes its
-- row on a clean stop. A job still `running` under a worker whose beat is stale or gone belonged to a
-- crashed process: the other workers hand it back to pg-boss at once instead of waiting for its time
-- limit (expireInSeconds). host and pid are for operators only.
create table jobs.job_workers (
  id uuid primary key,
  host text not null,
  pid integer not null,
  started_at timestamptz not null default now(),
  beat_at timestamptz not null default now()
);

-- The worker running the current attempt (set when it starts; kept afterwards for operators).
alter table jobs.job_status add column worker_id uuid;
-- The sweep reads only running jobs, a handful among every job ever run.
create index job_status_running_worker on jobs.job_status (worker_id) where state = 'running';

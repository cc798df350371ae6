-- The sweep for lost fetches (liveness.ts claimLostFetches) reads only queued jobs, a handful among every
-- job ever run.
create index job_status_queued on jobs.job_status (id) where state = 'queued';

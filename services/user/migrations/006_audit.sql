-- Audit trail of gateway calls (design §11, issue 19): the gateway posts one row per write and per
-- impersonated call, in batches; the service rows of 001 (user.create, ip.block...) stay in the same table.
do $migration$
begin

-- entry_id: made by the gateway per call, so a batch retried after a lost answer is not stored twice.
-- route: the gateway policy's pattern (ids in target_ids, never in the route); status: the answer's code.
alter table users.audit_log
  add column entry_id uuid,
  add column route text,
  add column target_ids jsonb,
  add column status integer;

create unique index audit_log_entry on users.audit_log (entry_id) where entry_id is not null;
create index audit_log_tenant_user on users.audit_log (tenant, user_id, created_at desc);
create index audit_log_tenant_actor on users.audit_log (tenant, actor_id, created_at desc);

end
$migration$;

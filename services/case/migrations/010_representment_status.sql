-- Representment status transitions (spec 2 §4): the case service's write API
-- for the docs service and its jobs, which run in the same database. The docs
-- service calls it inside its own transaction (so an accepted upload, its
-- compile job and the move to DocCompiling commit together), and the case
-- service stays the only writer of cases.cases and cases.case_history.
--
-- Moves the case to p_to when its status is one of p_from, records the
-- history row, and answers the previous status. Answers null (and changes
-- nothing) when the case is not in p_from, so callers can be idempotent.
create or replace function cases.set_representment_status(
  p_tenant text, p_case_id bigint, p_from integer[], p_to integer, p_action text,
  p_user_id bigint, p_username text
) returns integer language plpgsql as $$
declare
  previous integer;
begin
  select status_id into previous from cases.cases
    where tenant_id = p_tenant and id = p_case_id for update;
  if previous is null or not (previous = any(p_from)) then
    return null;
  end if;
  update cases.cases set status_id = p_to::smallint,
      date_completed = case when p_to = 10 then current_date else date_completed end,
      updated_at = now()
    where id = p_case_id;
  insert into cases.case_history (tenant_id, case_id, user_id, username, actor_id, actor_username, action)
    values (p_tenant, p_case_id, p_user_id, coalesce(p_username, 'system'), p_user_id, coalesce(p_username, 'system'), p_action);
  return previous;
end $$;

-- Who else has the case open (a live case mark of another user, e.g. the
-- upload modal's status 16): the docs service refuses an upload then. Null
-- when nobody else holds it.
create or replace function cases.case_held_by_other(
  p_tenant text, p_case_id bigint, p_user_id bigint, p_minutes integer
) returns text language sql stable as $$
  select coalesce(username, 'another user') from cases.case_marks
   where tenant_id = p_tenant and case_id = p_case_id
     and user_id is distinct from p_user_id
     and marked_at > now() - make_interval(mins => p_minutes)
$$;

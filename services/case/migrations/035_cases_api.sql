-- What other services may read of the case data (design §13, issue 30.1): the `cases_api` schema.
-- The user, docs and builder services (and the jobs they run) read these views and call these
-- functions, never a `cases.*` table; tests/static/schema-ownership.test.ts keeps them to it. Each view
-- has only the columns a reader needs and a tenant_id column every reader filters on. Postgres inlines
-- a simple view into the query that reads it, so a reader's plan is the one it had on the table.
--
-- The case service stays the only writer of its tables. A migration that changes a column named here
-- drops and re-creates the view in the same migration (Postgres refuses to change a column a view
-- uses), keeping the view's columns for the readers.
create schema if not exists cases_api;

-- The merchant hierarchy: the webhook dispatcher and live events walk a merchant's ancestors, the
-- deadline reminders a user's subtree; the mailed users export names each user's company.
create or replace view cases_api.merchants as
  select tenant_id, id, parent_id, business_name from cases.merchants;

-- MIDs by id and number: the reminders apply a user's MID permissions (which name a MID by either),
-- live events publish a case's MID, the builder finds the number of a MID to ask the case service about.
create or replace view cases_api.mids as
  select tenant_id, id, mid from cases.mids;

-- A case's place and state: the reminders pick the open cases due soon of a user's scope, live events
-- the case's MID, the docs service the case's merchant (its events) and status (the upload rules).
create or replace view cases_api.cases as
  select tenant_id, id, merchant_id, mid_id, status_id, status_group_id, date_due, assigned_user_id
    from cases.cases;

-- An alert's MID (through its descriptor, which may name none): live events publish it.
create or replace view cases_api.alerts as
  select a.tenant_id, a.id, d.mid_id
    from cases.alerts a join cases.alert_descriptors d on d.id = a.descriptor_id;

-- Representment status transitions (spec 2 §4): the case service's write API for the docs service
-- and its jobs, which run in the same database. The docs service calls it inside its own transaction
-- (an accepted upload, its compile job and the move to DocCompiling commit together; no network call
-- inside a transaction), and the case service stays the only writer of cases.cases and
-- cases.case_history. Moves the case to p_to when its status is one of p_from, records the history
-- row, and answers the previous status; answers null (and changes nothing) when the case is not in
-- p_from, so callers can be idempotent. (Moved here from the cases schema, migration 010.)
drop function if exists cases.set_representment_status(text, bigint, integer[], integer, text, bigint, text);
create or replace function cases_api.set_representment_status(
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

-- Who else has the case open (a live case mark of another user, e.g. the upload modal's status 16):
-- the docs service refuses an upload then. Null when nobody else holds it. (Moved from migration 010.)
drop function if exists cases.case_held_by_other(text, bigint, bigint, integer);
create or replace function cases_api.case_held_by_other(
  p_tenant text, p_case_id bigint, p_user_id bigint, p_minutes integer
) returns text language sql stable as $$
  select coalesce(username, 'another user') from cases.case_marks
   where tenant_id = p_tenant and case_id = p_case_id
     and user_id is distinct from p_user_id
     and marked_at > now() - make_interval(mins => p_minutes)
$$;

-- Chargeback cases (spec 2 §3) with their flags and history.
-- Lookup ids and a few derived values (is_fraud, status_group_id) are kept on
-- the row so list filters and dashboard aggregates run from one index.
create sequence cases.case_id_seq start with 1000000000;

create table cases.cases (
  id bigint primary key default nextval('cases.case_id_seq'),
  tenant_id text not null references cases.tenants (id),
  merchant_id bigint not null references cases.merchants (id),
  mid_id bigint not null references cases.mids (id),
  descriptor_id bigint references cases.descriptors (id),
  case_no text not null,
  order_id text,
  cycle_id smallint not null references cases.cycles (id),
  card_type_id smallint not null references cases.card_types (id),
  cc_bin text,
  cc_last_four text,
  reason_code_id integer not null references cases.reason_codes (id),
  is_fraud boolean not null,
  date_post date not null,
  date_due date not null,
  date_trans date,
  date_completed date,
  date_created timestamptz not null default now(),
  dispute_amt numeric(12, 2) not null,
  dispute_currency_id integer not null references cases.currencies (id),
  trans_amt numeric(12, 2),
  trans_currency_id integer references cases.currencies (id),
  status_id smallint not null references cases.statuses (id),
  -- Derived from status_id (trigger below on update; inserts set it).
  status_group_id smallint not null references cases.status_groups (id),
  verdict_id integer not null references cases.verdicts (id),
  processor_id integer references cases.processors (id),
  processor_invoice_id text,
  source_id integer references cases.sources (id),
  is_credit boolean not null default false,
  is_guaranteed boolean not null default false,
  arn text,
  comments text,
  flag_id bigint,
  is_flagged boolean not null default false,
  -- Assignee snapshot (provider staff, role 8 or 9) so lists need no user-service call.
  assigned_user_id bigint,
  assigned_fname text,
  assigned_lname text,
  assigned_username text,
  updated_at timestamptz not null default now()
);

create or replace function cases.set_status_group() returns trigger language plpgsql as $$
begin
  select status_group_id into new.status_group_id from cases.statuses where id = new.status_id;
  return new;
end $$;
create trigger cases_status_group before update of status_id on cases.cases
  for each row execute function cases.set_status_group();

-- List indexes: (tenant, sort column, id) for the first page of each sortable
-- date/amount column; the INCLUDE columns let scope and tab filters and deep
-- offsets run as index-only scans.
create index cases_tenant_due on cases.cases (tenant_id, date_due, id)
  include (merchant_id, mid_id, status_id, status_group_id, cycle_id, is_fraud);
create index cases_tenant_post on cases.cases (tenant_id, date_post, id)
  include (merchant_id, mid_id, status_id, status_group_id, cycle_id, is_fraud, card_type_id, verdict_id);
create index cases_tenant_id on cases.cases (tenant_id, id)
  include (merchant_id, mid_id, status_group_id, cycle_id, is_fraud);
create index cases_tenant_trans on cases.cases (tenant_id, date_trans, id);
create index cases_tenant_completed on cases.cases (tenant_id, date_completed, id);
create index cases_tenant_created on cases.cases (tenant_id, date_created, id);
create index cases_tenant_amt on cases.cases (tenant_id, dispute_amt, id);
create index cases_tenant_merchant_due on cases.cases (tenant_id, merchant_id, date_due, id);
-- Tabs: status-based ones, the open cases (working/expiring) and the assigned ones.
create index cases_tenant_status_due on cases.cases (tenant_id, status_id, date_due, id);
create index cases_tenant_group_due on cases.cases (tenant_id, status_group_id, date_due, id);
create index cases_tenant_open_due on cases.cases (tenant_id, date_due, id)
  include (merchant_id, mid_id, status_id, cycle_id, is_fraud) where status_group_id in (1, 2);
create index cases_tenant_assigned_due on cases.cases (tenant_id, date_due, id) where assigned_user_id is not null;
-- Search is a case-insensitive prefix match on identifiers (btree, works on PGlite without pg_trgm).
create index cases_search_case_no on cases.cases (tenant_id, lower(case_no) text_pattern_ops);
create index cases_search_order on cases.cases (tenant_id, lower(order_id) text_pattern_ops);
create index cases_search_arn on cases.cases (tenant_id, arn text_pattern_ops);
create index cases_search_last_four on cases.cases (tenant_id, cc_last_four);
create index cases_tenant_mid on cases.cases (tenant_id, mid_id);

create table cases.case_flags (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  case_id bigint not null references cases.cases (id),
  is_flagged boolean not null,
  comment text,
  created_by bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index case_flags_case on cases.case_flags (case_id);

create table cases.case_history (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  case_id bigint not null references cases.cases (id),
  created_at timestamptz not null default now(),
  -- Effective user; actor differs while impersonating ('Login As').
  user_id bigint,
  username text,
  actor_id bigint,
  actor_username text,
  action text not null
);
create index case_history_case on cases.case_history (case_id, created_at, id);

-- Exact case counts per scope dimension, kept by statement triggers, so that
-- `limit=0` counts and tab totals on 1,000,000 cases sum a few hundred rows
-- instead of counting the cases.
create table cases.case_counts (
  tenant_id text not null,
  merchant_id bigint not null,
  mid_id bigint not null,
  status_id smallint not null,
  cycle_id smallint not null,
  is_fraud boolean not null,
  n bigint not null,
  primary key (tenant_id, merchant_id, mid_id, status_id, cycle_id, is_fraud)
);

create or replace function cases.case_counts_apply() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    insert into cases.case_counts as cc
      select tenant_id, merchant_id, mid_id, status_id, cycle_id, is_fraud, -count(*)
      from old_rows group by 1, 2, 3, 4, 5, 6
      on conflict (tenant_id, merchant_id, mid_id, status_id, cycle_id, is_fraud)
      do update set n = cc.n + excluded.n;
  end if;
  if tg_op in ('UPDATE', 'INSERT') then
    insert into cases.case_counts as cc
      select tenant_id, merchant_id, mid_id, status_id, cycle_id, is_fraud, count(*)
      from new_rows group by 1, 2, 3, 4, 5, 6
      on conflict (tenant_id, merchant_id, mid_id, status_id, cycle_id, is_fraud)
      do update set n = cc.n + excluded.n;
  end if;
  return null;
end $$;
create trigger case_counts_insert after insert on cases.cases
  referencing new table as new_rows for each statement execute function cases.case_counts_apply();
create trigger case_counts_update after update on cases.cases
  referencing old table as old_rows new table as new_rows for each statement execute function cases.case_counts_apply();
create trigger case_counts_delete after delete on cases.cases
  referencing old table as old_rows for each statement execute function cases.case_counts_apply();

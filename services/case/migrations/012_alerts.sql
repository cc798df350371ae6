-- Pre-chargeback alerts (spec 2 §2.11, §3, §4): alerts from Ethoca, Verifi
-- CDRN and Visa RDR, the descriptors they name (each mapped to a MID or not
-- yet: 'Select MID'), their outcomes and history.

-- The alerts service level is separate from the chargeback one: 2 (Self)
-- lets the merchant work its alerts (spec 2 §9).
alter table cases.merchants
  add column alerts_service_level_id integer not null default 1 references cases.service_levels (id);

-- Outcomes 1-3 are refunds (need refund_id, order_id, customer_name); 6 is
-- case related (needs a case id); the others need nothing more.
create table cases.alert_outcomes (
  id smallint primary key,
  name text not null,
  kind text not null check (kind in ('refund', 'case', 'other'))
);
insert into cases.alert_outcomes values
  (1, 'Refunded', 'refund'),
  (2, 'Already Refunded', 'refund'),
  (3, 'Partially Refunded', 'refund'),
  (4, 'No Match Found', 'other'),
  (5, 'Declined Transaction', 'other'),
  (6, 'Already A Chargeback', 'case'),
  (7, 'No Refund', 'other'),
  (8, 'Resolved With Customer', 'other');

-- Every descriptor a merchant's alerts name; mid_id is the descriptor-to-MID
-- mapping (null until someone selects the MID). Alerts take their MID from here,
-- so one mapping applies to every alert of the descriptor at once.
create table cases.alert_descriptors (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  merchant_id bigint not null references cases.merchants (id),
  descriptor text not null,
  mid_id bigint references cases.mids (id),
  mapped_by bigint,
  mapped_username text,
  mapped_at timestamptz,
  unique (tenant_id, merchant_id, descriptor)
);
create index alert_descriptors_lower on cases.alert_descriptors (tenant_id, lower(descriptor) text_pattern_ops);

create sequence cases.alert_id_seq start with 1000000000;

create table cases.alerts (
  id bigint primary key default nextval('cases.alert_id_seq'),
  tenant_id text not null references cases.tenants (id),
  merchant_id bigint not null references cases.merchants (id),
  descriptor_id bigint not null references cases.alert_descriptors (id),
  source_id integer not null references cases.sources (id),
  order_id text,
  trans_amount numeric(12, 2) not null,
  currency_id integer not null references cases.currencies (id),
  trans_date date not null,
  card_type_id integer not null references cases.card_types (id),
  cc_bin text,
  cc_last_four text,
  alert_date timestamptz not null,
  expiration_date timestamptz not null,
  outcome_id smallint references cases.alert_outcomes (id),
  refund_id text,
  customer_name text,
  case_id bigint references cases.cases (id),
  completed boolean not null default false,
  completed_date timestamptz,
  completed_by bigint,
  completed_username text,
  updated_at timestamptz not null default now()
);
-- List: (tenant, alert date, id) for the default sort; merchant-scoped variant for merchant users.
create index alerts_tenant_date on cases.alerts (tenant_id, alert_date, id) include (merchant_id, descriptor_id);
create index alerts_tenant_merchant_date on cases.alerts (tenant_id, merchant_id, alert_date, id);
create index alerts_descriptor_date on cases.alerts (descriptor_id, alert_date, id);
create index alerts_search_order on cases.alerts (tenant_id, lower(order_id) text_pattern_ops);
-- Auto-refund rules pick open alerts by merchant.
create index alerts_open on cases.alerts (tenant_id, merchant_id, alert_date) where not completed;

create table cases.alert_history (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  alert_id bigint not null references cases.alerts (id),
  created_at timestamptz not null default now(),
  user_id bigint,
  username text,
  actor_id bigint,
  old_outcome_id smallint references cases.alert_outcomes (id),
  new_outcome_id smallint references cases.alert_outcomes (id),
  action text not null
);
create index alert_history_alert on cases.alert_history (alert_id, created_at, id);

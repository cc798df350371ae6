-- Merchant and MID administration (issue 15): ids for new rows, the MID form's
-- fields, merchant-level deflectors and the MID change history.
-- Seeded ids live in per-tenant blocks of a million; new rows start above every block.
create sequence cases.merchant_id_seq start with 2000000000;
create sequence cases.mid_id_seq start with 2000000000;
create sequence cases.descriptor_id_seq start with 2000000000;

alter table cases.mids
  add column mcc text,
  add column caid text,
  add column service_level_id integer not null default 1 references cases.service_levels (id),
  add column wpg_merchant_code text,
  add column mid_type_id integer not null default 1,
  add column inherit_merchant_deflectors boolean not null default false;

create table cases.merchant_deflectors (
  tenant_id text not null references cases.tenants (id),
  merchant_id bigint not null references cases.merchants (id),
  deflector_id integer not null references cases.deflectors (id),
  status_id integer not null references cases.deflector_statuses (id),
  primary key (merchant_id, deflector_id)
);

-- One row per changed field, written in the transaction of the change.
create table cases.mid_history (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  mid_id bigint not null references cases.mids (id),
  user_id bigint,
  username text not null,
  field text not null,
  old_value text,
  new_value text,
  date_created timestamptz not null default now()
);
create index mid_history_tenant_mid on cases.mid_history (tenant_id, mid_id, date_created desc, id desc);
create index merchants_tenant_name on cases.merchants (tenant_id, parent_id, lower(business_name), id);

-- Merchant hierarchy, MIDs, descriptors and deflectors; all tenant-owned.
create table cases.merchants (
  id bigint primary key,
  tenant_id text not null references cases.tenants (id),
  parent_id bigint references cases.merchants (id),
  business_name text not null,
  alias text,
  partner_company_id text,
  status_id integer not null default 1 references cases.merchant_statuses (id),
  date_created timestamptz not null default now(),
  business_address text,
  city text,
  state text,
  zip text,
  country_id integer references cases.countries (id),
  business_phone text,
  contact_username text,
  contact_fname text,
  contact_lname text,
  contact_phone text,
  contact_email text,
  direct_api boolean not null default false,
  issuer_docs boolean not null default false,
  service_level_id integer not null default 1 references cases.service_levels (id),
  show_alerts_banner boolean not null default false,
  allowed_domains text[] not null default '{}'
);
create index merchants_tenant_parent on cases.merchants (tenant_id, parent_id);

create table cases.mids (
  id bigint primary key,
  tenant_id text not null references cases.tenants (id),
  merchant_id bigint not null references cases.merchants (id),
  mid text not null,
  alias text,
  processor_id integer references cases.processors (id),
  status_id integer not null default 1,
  date_created timestamptz not null default now(),
  unique (tenant_id, mid)
);
create index mids_tenant_merchant on cases.mids (tenant_id, merchant_id);

create table cases.descriptors (
  id bigint primary key,
  tenant_id text not null references cases.tenants (id),
  mid_id bigint not null references cases.mids (id),
  descriptor text not null
);
create index descriptors_tenant_mid on cases.descriptors (tenant_id, mid_id);
create index descriptors_tenant_lower on cases.descriptors (tenant_id, lower(descriptor));

create table cases.mid_deflectors (
  tenant_id text not null references cases.tenants (id),
  mid_id bigint not null references cases.mids (id),
  deflector_id integer not null references cases.deflectors (id),
  status_id integer not null references cases.deflector_statuses (id),
  primary key (mid_id, deflector_id)
);

-- Provider staff that cases can be assigned to (role ids 8 and 9). The user
-- service owns users; it keeps this replica current through PUT /cm/assignees/{id}
-- so case lists carry the assignee's name without a cross-service call.
create table cases.assignees (
  id bigint primary key,
  tenant_id text not null references cases.tenants (id),
  username text not null,
  fname text not null,
  lname text not null,
  role_id integer not null,
  is_active boolean not null default true
);

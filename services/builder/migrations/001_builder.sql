-- The case builder (dispute assistant), spec 2 §2.7, §3, §4, §5.
-- The field catalogue and page layout live in code (contracts/builder.ts);
-- this schema holds the per-merchant product catalogue, the document types
-- and each case's draft answers.

create table builder.categories (
  id bigserial primary key,
  tenant_id text not null,
  -- null: offered to every merchant of the tenant; else the merchant's own
  merchant_id bigint,
  name text not null,
  unique (tenant_id, merchant_id, name)
);
create index categories_tenant on builder.categories (tenant_id, merchant_id);

create table builder.products (
  id bigserial primary key,
  tenant_id text not null,
  merchant_id bigint not null,
  -- null: every MID of the merchant sells it
  mid_id bigint,
  name text not null check (length(name) between 1 and 200),
  description text,
  -- transaction type: 1 shippable goods, 2 digital/other, 4 service
  type_id smallint not null check (type_id in (1, 2, 4)),
  category_id bigint not null references builder.categories (id),
  created_by text,
  created_at timestamptz not null default now()
);
create index products_merchant on builder.products (tenant_id, merchant_id, lower(name));

-- Document types of step 3 and when each is required.
create table builder.doc_types (
  id integer primary key,
  name text not null,
  required_when text not null check (required_when in ('always', 'shippable', 'service', 'never'))
);
insert into builder.doc_types values
  (1, 'Invoice / Receipt', 'always'),
  (2, 'Proof of Delivery', 'shippable'),
  (3, 'Service Agreement', 'service'),
  (4, 'Customer Communication', 'never'),
  (5, 'Terms and Conditions', 'never'),
  (6, 'AVS / CVV Verification', 'never'),
  (7, 'Refund Policy', 'never'),
  (9, 'Other', 'never');

-- One draft per case: the answers of step 1 and the furthest page saved.
create table builder.case_drafts (
  tenant_id text not null,
  case_id bigint not null,
  merchant_id bigint not null,
  product_id bigint references builder.products (id),
  sale_type smallint,
  type_id smallint check (type_id in (1, 2, 4)),
  is_shippable boolean not null default false,
  is_service boolean not null default false,
  is_subscription boolean not null default false,
  page smallint not null default 1,
  updated_at timestamptz not null default now(),
  updated_by text,
  updated_by_id bigint,
  primary key (tenant_id, case_id),
  check (not (is_shippable and is_service))
);

create table builder.case_values (
  tenant_id text not null,
  case_id bigint not null,
  field_id integer not null,
  value text,
  primary key (tenant_id, case_id, field_id),
  foreign key (tenant_id, case_id) references builder.case_drafts (tenant_id, case_id) on delete cascade
);

-- Verifi RDR automatic refund rules per merchant or MID (issue 15, spec 3 §2 'RDR Rule').
update cases.deflectors set alias = 'verifi_rdr' where id = 3 and alias = 'rdr';

create table cases.rule_subjects (
  id integer primary key,
  name text not null,
  type text not null check (type in ('string', 'id', 'date', 'number')),
  format text,
  endpoint text
);
create table cases.rule_operators (id integer primary key, name text not null);

insert into cases.rule_subjects values
  (1, 'Issuer BIN', 'string', null, null),
  (2, 'Transaction Date', 'date', 'yyyy-mm-dd', null),
  (3, 'Transaction Amount', 'number', '0,000.00', null),
  (4, 'Transaction Currency', 'string', null, '/cm/gen/currencies'),
  (5, 'Purchase ID', 'string', null, null),
  (6, 'Dispute Category', 'string', null, null),
  (7, 'Condition Code', 'string', null, null);
insert into cases.rule_operators values
  (1, 'Contains'), (2, 'EqualTo'), (3, 'GreaterThan'), (4, 'LessThan'), (5, 'IsBlank'), (6, 'StartsWith'), (7, 'IsIn');

create table cases.rdr_rules (
  id bigserial primary key,
  tenant_id text not null references cases.tenants (id),
  merchant_id bigint references cases.merchants (id),
  mid_id bigint references cases.mids (id),
  position integer not null,
  subject_id integer not null references cases.rule_subjects (id),
  operator_id integer not null references cases.rule_operators (id),
  value text not null,
  updated_by text,
  date_updated timestamptz not null default now(),
  check ((merchant_id is null) <> (mid_id is null))
);
create index rdr_rules_merchant on cases.rdr_rules (tenant_id, merchant_id) where merchant_id is not null;
create index rdr_rules_mid on cases.rdr_rules (tenant_id, mid_id) where mid_id is not null;

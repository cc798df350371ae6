-- Merchant features (spec 3 §5): 1 issuer documents, 2 outcome verdicts, 3 platform.
-- They gate case columns, the verdict filter and export columns (spec 2 §2.1, §2.2, §6).
-- Replaces the issuer_docs boolean, which could hold only the first of them.
create table cases.merchant_features (
  tenant_id text not null references cases.tenants (id),
  merchant_id bigint not null references cases.merchants (id) on delete cascade,
  feature_id smallint not null check (feature_id in (1, 2, 3)),
  primary key (merchant_id, feature_id)
);

insert into cases.merchant_features (tenant_id, merchant_id, feature_id)
select tenant_id, id, 1 from cases.merchants where issuer_docs;

alter table cases.merchants drop column issuer_docs;

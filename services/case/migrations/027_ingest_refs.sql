-- Alerts and chargebacks ingested from the networks' and acquirers' feeds
-- (POST /cm/alerts, POST /cm/cases/import; issue 19) carry the feed's own id:
-- one record per (tenant, source, source id), so a feed that sends a record
-- twice creates it once. Seeded records have none.
alter table cases.alerts add column source_ref text;
create unique index alerts_source_ref on cases.alerts (tenant_id, source_id, source_ref) where source_ref is not null;
alter table cases.cases add column source_ref text;
create unique index cases_source_ref on cases.cases (tenant_id, source_id, source_ref) where source_ref is not null;

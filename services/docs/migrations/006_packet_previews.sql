-- Preview PDFs (issue 34) are kept in the object store for the viewer only:
-- each one stored is recorded here, and the hourly housekeeping job
-- (docs.upload-link-purge) deletes those not previewed again for a day.
create table docs.packet_previews (
  tenant_id text not null,
  s3_key text not null,
  stored_at timestamptz not null default now(),
  primary key (tenant_id, s3_key)
);
create index packet_previews_stored on docs.packet_previews (stored_at);

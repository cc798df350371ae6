-- See the evidence before it goes (issue 34): the page operations a person
-- made in the preview (pages removed, turned or masked), stored with the
-- version as a list of {document: order_num, op: {...}} and applied by the
-- compile job, and the note with which the packet's warnings were accepted.
alter table docs.representment_versions
  add column page_ops jsonb not null default '[]'::jsonb,
  add column accepted_warnings jsonb;

-- Bulk auto-accept (issue 14) picks its next batch of New cases matching the job's currency, cycle and reason
-- code in id order. From cases_tenant_status_due that meant reading and sorting every New case of the tenant
-- for each batch; this index gives the batch in id order and stops at the batch size, and its INCLUDE columns
-- make the preview count an index-only scan. Being partial on New cases it stays small, and a case
-- leaving New (every case the job closes) adds no entry to it.
create index cases_new_criteria on cases.cases (tenant_id, dispute_currency_id, cycle_id, reason_code_id, id)
  include (dispute_amt, merchant_id, mid_id) where status_id = 1;

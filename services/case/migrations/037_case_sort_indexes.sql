-- Case lists sorted by a column no index kept in order (issue 31: under a crowd, a tenant's 500,000 cases
-- sorted by order id for every page was among the costliest statements).
--
-- Plain columns: the page is read from the index in order.
create index cases_sort_case_no on cases.cases (tenant_id, case_no, id);
create index cases_sort_order_id on cases.cases (tenant_id, order_id, id);
create index cases_sort_assigned on cases.cases (tenant_id, assigned_username, id);

-- Labels of a lookup (status group, verdict, card type, reason code, merchant, MID): the list walks the
-- lookup's rows in label order and reads each one's cases in id order (case-repository.ts), which also
-- serves the advanced filters on these columns.
create index cases_sort_status_group on cases.cases (tenant_id, status_group_id, id);
create index cases_sort_verdict on cases.cases (tenant_id, verdict_id, id);
create index cases_sort_card_type on cases.cases (tenant_id, card_type_id, id);
create index cases_sort_reason_code on cases.cases (tenant_id, reason_code_id, id);
create index cases_sort_merchant on cases.cases (tenant_id, merchant_id, id);
-- Replaces (tenant_id, mid_id): the same prefix, now in id order.
create index cases_sort_mid on cases.cases (tenant_id, mid_id, id);
drop index cases.cases_tenant_mid;

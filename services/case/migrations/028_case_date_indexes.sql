-- Every index of cases.cases costs each case write a new entry (a status change is never a HOT update), and
-- bulk auto-accept writes thousands of cases a second (issue 14). The report indexes of 021 had the same
-- leading keys as the list indexes by post and transaction date of 003: one index per date now, holding
-- the columns of both, so the lists and the card and customer charts still read the index alone.
drop index cases.cases_report_post;
drop index cases.cases_tenant_post;
create index cases_tenant_post on cases.cases (tenant_id, date_post, id)
  include (merchant_id, mid_id, status_id, status_group_id, cycle_id, is_fraud, card_type_id, verdict_id,
    dispute_currency_id, processor_id, cc_bin, cc_last_four, date_trans);
drop index cases.cases_report_trans;
drop index cases.cases_tenant_trans;
create index cases_tenant_trans on cases.cases (tenant_id, date_trans, id)
  include (merchant_id, mid_id, dispute_currency_id, processor_id, card_type_id, cc_bin, cc_last_four, date_post);

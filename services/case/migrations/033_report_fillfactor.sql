-- Room on every page of the rollups for their counter updates (issue 18). A case's status or verdict change
-- rewrites its day's rollup row; none of those counters is indexed, so with free space on the page the new
-- version stays there (a HOT update: no index writes) and a day's rows stay together. Full pages sent every
-- update of the recent days to another page, and a month's report read one page per row. Pages written from
-- now on keep the space; `cluster cases.report_daily using report_daily_pkey` (maintenance, it locks the
-- table) gives existing rows the same layout.
alter table cases.report_daily set (fillfactor = 60);
alter table cases.report_monthly set (fillfactor = 60);

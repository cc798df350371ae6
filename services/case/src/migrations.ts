import type { ServiceMigrations } from '@portal/core';
import m001 from '../migrations/001_reference.sql';
import m002 from '../migrations/002_merchants.sql';
import m003 from '../migrations/003_cases.sql';
import m004 from '../migrations/004_review.sql';
import m005 from '../migrations/005_merchant_features.sql';
import m007 from '../migrations/007_issuer_docs.sql';
import m008 from '../migrations/008_case_comments.sql';
import m010 from '../migrations/010_representment_status.sql';
import m011 from '../migrations/011_remedy.sql';
import m012 from '../migrations/012_alerts.sql';
import m013 from '../migrations/013_bulk_jobs.sql';
import m014 from '../migrations/014_merchant_admin.sql';
import m015 from '../migrations/015_rdr_rules.sql';
import m016 from '../migrations/016_onboarding_updater_ert.sql';
import m020 from '../migrations/020_alerts_list_indexes.sql';
import m021 from '../migrations/021_reports.sql';
import m022 from '../migrations/022_merchant_grid_indexes.sql';
import m023 from '../migrations/023_merchant_tree_search.sql';
import m027 from '../migrations/027_ingest_refs.sql';
import m028 from '../migrations/028_case_date_indexes.sql';
import m029 from '../migrations/029_bulk_accept_pick.sql';
import m030 from '../migrations/030_report_monthly.sql';
import m031 from '../migrations/031_repeat_cards.sql';
import m032 from '../migrations/032_alert_report_indexes.sql';
import m033 from '../migrations/033_report_fillfactor.sql';
import m034 from '../migrations/034_card_network_names.sql';
import m035 from '../migrations/035_cases_api.sql';
import m036 from '../migrations/036_connectors.sql';
import m037 from '../migrations/037_case_sort_indexes.sql';
import m038 from '../migrations/038_mid_activity.sql';
import m039 from '../migrations/039_report_monthly_counters.sql';
import m040 from '../migrations/040_money_ledger.sql';
import m041 from '../migrations/041_win_odds.sql';
import m042 from '../migrations/042_report_monthly_keys.sql';
import m043 from '../migrations/043_report_disputed.sql';
import m044 from '../migrations/044_static_rollup_triggers.sql';
import m045 from '../migrations/045_covering_scope_indexes.sql';
import m046 from '../migrations/046_case_counts_net.sql';
import m047 from '../migrations/047_mid_daily_covering.sql';

export const caseMigrations: ServiceMigrations = {
  schema: 'cases',
  migrations: [
    { version: 1, name: '001_reference', sql: m001 },
    { version: 2, name: '002_merchants', sql: m002 },
    { version: 3, name: '003_cases', sql: m003 },
    { version: 4, name: '004_review', sql: m004 },
    { version: 5, name: '005_merchant_features', sql: m005 },
    { version: 7, name: '007_issuer_docs', sql: m007 },
    { version: 8, name: '008_case_comments', sql: m008 },
    { version: 10, name: '010_representment_status', sql: m010 },
    { version: 11, name: '011_remedy', sql: m011 },
    { version: 12, name: '012_alerts', sql: m012 },
    { version: 13, name: '013_bulk_jobs', sql: m013 },
    { version: 14, name: '014_merchant_admin', sql: m014 },
    { version: 15, name: '015_rdr_rules', sql: m015 },
    { version: 16, name: '016_onboarding_updater_ert', sql: m016 },
    { version: 20, name: '020_alerts_list_indexes', sql: m020 },
    { version: 21, name: '021_reports', sql: m021 },
    { version: 22, name: '022_merchant_grid_indexes', sql: m022 },
    { version: 23, name: '023_merchant_tree_search', sql: m023 },
    { version: 27, name: '027_ingest_refs', sql: m027 },
    { version: 28, name: '028_case_date_indexes', sql: m028 },
    { version: 29, name: '029_bulk_accept_pick', sql: m029 },
    { version: 30, name: '030_report_monthly', sql: m030 },
    { version: 31, name: '031_repeat_cards', sql: m031 },
    { version: 32, name: '032_alert_report_indexes', sql: m032 },
    { version: 33, name: '033_report_fillfactor', sql: m033 },
    { version: 34, name: '034_card_network_names', sql: m034 },
    { version: 35, name: '035_cases_api', sql: m035 },
    { version: 36, name: '036_connectors', sql: m036 },
    { version: 37, name: '037_case_sort_indexes', sql: m037 },
    { version: 38, name: '038_mid_activity', sql: m038 },
    { version: 39, name: '039_report_monthly_counters', sql: m039 },
    { version: 40, name: '040_money_ledger', sql: m040 },
    { version: 41, name: '041_win_odds', sql: m041 },
    { version: 42, name: '042_report_monthly_keys', sql: m042 },
    { version: 43, name: '043_report_disputed', sql: m043 },
    { version: 44, name: '044_static_rollup_triggers', sql: m044 },
    { version: 45, name: '045_covering_scope_indexes', sql: m045 },
    { version: 46, name: '046_case_counts_net', sql: m046 },
    { version: 47, name: '047_mid_daily_covering', sql: m047 },
  ],
};

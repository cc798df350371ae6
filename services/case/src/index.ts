import type { ServiceDefinition } from '@portal/core';
import { caseRoutes } from './routes';

export { caseMigrations } from './migrations';
export { seedCases } from './seed/index';
export { BULK_JOBS } from './bulk-close/bulk-run';
export { ONBOARDING_JOBS } from './onboarding/finalize';
export { UPDATER_JOBS } from './case-updater/updater-job';
export { EXPORT_JOBS } from './exports/mailed-export-job';
export { CONNECTOR_JOBS } from './connectors/backfill-job';
export { winOddsRefresh, WIN_ODDS_JOBS } from './win-odds/win-odds-jobs';
export { reportKeyFold, reportKeyFoldJob } from './reports/report-key-fold-job';

export const caseService: ServiceDefinition = {
  name: 'case',
  title: 'Case service',
  routes: caseRoutes,
};

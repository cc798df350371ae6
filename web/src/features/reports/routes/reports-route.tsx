import { Grid, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { ErrorBoundary } from '../../../components/error-boundary';
import { PageHeader } from '../../../components/page-header';
import { lastDays } from '../../../lib/dates';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { useTenant } from '../../../lib/tenant-config';
import { CHART_VIEWS, ReportChart } from '../components/report-chart';
import { ReportFilters, reportParams, type ReportFilterState } from '../components/report-filters';
import { reportSections } from '../components/report-layout';
import { WinRateTable } from '../components/win-rate-table';
import { ExchangeRatesPanel } from '../components/exchange-rates-panel';
import { RecoveredRevenueSection } from '../components/recovered-revenue-section';

/** Reports default range: the last 30 days (spec 3 §9). */
export const REPORT_DAYS = 30;

/** /reports (spec 3 §2 Reports): chart sections from the tenant's layout, one shared filter bar. */
export default function ReportsRoute() {
  const tenant = useTenant();
  const merchantId = useSelectedMerchant()?.id;
  const [filters, setFilters] = useState<ReportFilterState>(() => ({
    mid: null,
    currency: null,
    dateReference: 'post',
    range: lastDays(REPORT_DAYS),
  }));
  const params = reportParams(filters, merchantId);
  return (
    <Stack gap="5" p={{ base: 3, md: 6 }} data-testid="reports">
      <PageHeader title="Reports" mb="0" />
      <ReportFilters value={filters} onChange={setFilters} merchantId={merchantId} />
      {reportSections(tenant.report_charts).map((row) => (
        <Grid
          key={row.join()}
          templateColumns={{ base: '1fr', lg: `repeat(${row.length}, minmax(0, 1fr))` }}
          gap="5"
          data-testid="report-section"
        >
          {row.map((chart) => (
            <ErrorBoundary key={chart} area={CHART_VIEWS[chart].title}>
              <ReportChart chart={chart} params={params} />
            </ErrorBoundary>
          ))}
        </Grid>
      ))}
      <ErrorBoundary area="Win Rate">
        <WinRateTable params={params} />
      </ErrorBoundary>
      <ErrorBoundary area="Recovered Revenue">
        <RecoveredRevenueSection params={params} />
        <ExchangeRatesPanel />
      </ErrorBoundary>
    </Stack>
  );
}

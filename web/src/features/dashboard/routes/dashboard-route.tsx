import { Grid, Stack } from '@chakra-ui/react';
import { ErrorBoundary } from '../../../components/error-boundary';
import { PageHeader } from '../../../components/page-header';
import { BreakdownChart } from '../components/breakdown-chart';
import { ChargebacksByDateChart } from '../components/chargebacks-by-date-chart';
import { DashboardTiles } from '../components/dashboard-tiles';
import { MidsTop5Grid } from '../components/mids-top5-grid';

/** /dashboard (spec 1 §2.5). */
export default function DashboardRoute() {
  return (
    <Stack gap="5" p={{ base: 3, md: 6 }} minW="0" data-testid="dashboard">
      <PageHeader title="Dashboard" mb="0" />
      <ErrorBoundary area="Dashboard Tiles">
        <DashboardTiles />
      </ErrorBoundary>
      <Grid templateColumns={{ base: '1fr', xl: '2fr 1fr' }} gap="5">
        <ErrorBoundary area="Chargebacks by Post Date">
          <ChargebacksByDateChart />
        </ErrorBoundary>
        <ErrorBoundary area="Chargebacks Breakdown">
          <BreakdownChart />
        </ErrorBoundary>
      </Grid>
      <ErrorBoundary area="Top 5 MIDs">
        <MidsTop5Grid />
      </ErrorBoundary>
    </Stack>
  );
}

import { Flex, Skeleton, Text } from '@chakra-ui/react';
import { LazyPieChart } from '../../../components/charts/lazy-charts';
import type { PieSlice } from '../../../components/charts/pie-chart';
import { Suspense } from 'react';
import { Notice } from '../../../components/notice';
import { monthToDate, rangeParam } from '../../../lib/dates';
import { queryErrorMessage } from '../../../lib/errors';
import { useTenant } from '../../../lib/tenant-config';
import { useClientId } from '../api/dashboard-params';
import { useChargebacksByCardType } from '../api/get-chargebacks-by-card-type';
import { useChargebacksByStatus } from '../api/get-chargebacks-by-status';
import { Card } from './card';
import { NO_RECORDS } from './chargebacks-by-date-chart';

/** Pie chart by card type (This Month) or by status, per the tenant's setting. */
export function BreakdownChart() {
  const tenant = useTenant();
  const clientId = useClientId();
  const byCard = tenant.dashboard.pie_chart === 'card_type';
  const range = rangeParam(monthToDate());
  const cards = useChargebacksByCardType(clientId, range, byCard);
  const statuses = useChargebacksByStatus(clientId, range, !byCard);
  const q = byCard ? cards : statuses;
  const slices: PieSlice[] = byCard
    ? (cards.data ?? []).map((r) => ({ label: r.name, value: r.count }))
    : (statuses.data ?? []).map((r) => ({ label: r.case_status, value: r.count }));
  const total = slices.reduce((s, x) => s + x.value, 0);
  return (
    <Card
      title={byCard ? 'Chargebacks by Card Type (This Month)' : 'Chargebacks by Status (This Month)'}
      testId="chart-breakdown"
    >
      {q.isPending ? (
        <Skeleton h="300px" />
      ) : q.isError ? (
        <Notice status="error">{queryErrorMessage(q.error)}</Notice>
      ) : total === 0 ? (
        <Flex h="300px" align="center" justify="center">
          <Text color="fg.muted" fontSize="lg">
            {NO_RECORDS}
          </Text>
        </Flex>
      ) : (
        <div data-testid="breakdown-slices" data-slices={JSON.stringify(slices)}>
          <Suspense fallback={<Skeleton h="300px" />}>
            <LazyPieChart slices={slices} />
          </Suspense>
        </div>
      )}
    </Card>
  );
}

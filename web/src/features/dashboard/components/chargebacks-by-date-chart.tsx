import { Flex, Skeleton, Text } from '@chakra-ui/react';
import { Suspense, useState } from 'react';
import { LazyAreaChart } from '../../../components/charts/lazy-charts';
import { DateRangePicker } from '../../../components/date-range-picker';
import { Notice } from '../../../components/notice';
import { daysBetween, lastDays, rangeParam, type DateRange } from '../../../lib/dates';
import { queryErrorMessage } from '../../../lib/errors';
import { formatCount } from '../../../lib/format';
import { useTenant } from '../../../lib/tenant-config';
import { lookFor } from '../../../lib/theme';
import { useProfile } from '../../../lib/auth/auth-context';
import { useClientId } from '../api/dashboard-params';
import { useChargebacksByDateRange } from '../api/get-chargebacks-by-date-range';
import { Card } from './card';

export const NO_RECORDS = 'No Records Found!';
/** Month labels once the range exceeds 90 days. */
export const MONTH_LABELS_AFTER_DAYS = 90;

export function ChargebacksByDateChart() {
  const [range, setRange] = useState<DateRange>(() => lastDays(90));
  const clientId = useClientId();
  const tenant = useTenant();
  const profile = useProfile();
  const q = useChargebacksByDateRange(clientId, rangeParam(range));
  const total = q.data?.reduce((s, r) => s + r.count, 0) ?? 0;
  return (
    <Card
      title="Chargebacks by Post Date"
      testId="chart-by-date"
      actions={<DateRangePicker value={range} onChange={setRange} testId="by-date-range" />}
    >
      {q.isPending ? (
        <Skeleton h="300px" />
      ) : q.isError ? (
        <Notice status="error">{queryErrorMessage(q.error)}</Notice>
      ) : total === 0 ? (
        <Flex h="300px" align="center" justify="center" data-testid="by-date-empty">
          <Text color="fg.muted" fontSize="lg">
            {NO_RECORDS}
          </Text>
        </Flex>
      ) : (
        <>
          <Text fontSize="sm" color="fg.muted" data-testid="by-date-total">
            {formatCount(total)} chargebacks posted
          </Text>
          <Suspense fallback={<Skeleton h="300px" />}>
            <LazyAreaChart
              points={q.data}
              monthLabels={daysBetween(range) > MONTH_LABELS_AFTER_DAYS}
              color={lookFor(tenant, profile.theme_variant).colors.primary}
              name="Chargebacks"
            />
          </Suspense>
        </>
      )}
    </Card>
  );
}

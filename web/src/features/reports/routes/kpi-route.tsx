import { Flex, Grid, NativeSelect, Stack } from '@chakra-ui/react';
import { lazy, useState } from 'react';
import { DateRangePicker } from '../../../components/date-range-picker';
import { Notice } from '../../../components/notice';
import { PageHeader } from '../../../components/page-header';
import { rangeParam, toIsoDate, type DateRange } from '../../../lib/dates';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { useLookup } from '../../../lib/get-lookup';
import { searchCurrencies, useKpiAlerts, useKpiChargebacks, type Option } from '../api/reports-api';
import { ChartCard } from '../components/chart-card';
import { TypeAhead } from '../components/type-ahead';

const load = () => import('../charts/report-charts');
const Line = lazy(() => load().then((m) => ({ default: m.LineChart })));
const Bar = lazy(() => load().then((m) => ({ default: m.BarChart })));

export const KPI_ERROR = 'There was an error fetching the Resultant KPI data.';
/** KPI default range: the prior 6 months (spec 3 §9). */
export const KPI_MONTHS = 6;

export function priorMonths(n: number, today = new Date()): DateRange {
  return {
    from: toIsoDate(new Date(today.getFullYear(), today.getMonth() - n, 1)),
    to: toIsoDate(today),
  };
}

/** /resultant-kpi (spec 3 §2): chargebacks against transactions and alerts against chargebacks per month. */
export default function KpiRoute() {
  const merchantId = useSelectedMerchant()?.id;
  const [range, setRange] = useState(() => priorMonths(KPI_MONTHS));
  const [currency, setCurrency] = useState<Option | null>(null);
  const [platform, setPlatform] = useState('');
  const platforms = useLookup('cm/gen/processors');
  const params = {
    merchant_id: merchantId,
    date_range: rangeParam(range),
    currency_id: currency?.id,
    platform_id: platform ? Number(platform) : undefined,
  };
  const cb = useKpiChargebacks(params);
  const alerts = useKpiAlerts(params);
  const cbRows = cb.data?.data ?? [];
  const alertRows = alerts.data?.data ?? [];
  return (
    <Stack gap="5" p={{ base: 3, md: 6 }} data-testid="resultant-kpi">
      <PageHeader title="Resultant KPI" mb="0" />
      <Flex gap="3" wrap="wrap" align="center">
        <DateRangePicker value={range} onChange={setRange} testId="kpi-range" />
        <TypeAhead
          allLabel="All Currencies"
          value={currency}
          onChange={setCurrency}
          search={searchCurrencies}
          queryKey={['currencies']}
          testId="kpi-currency"
        />
        <NativeSelect.Root size="sm" w="auto" bg="white">
          <NativeSelect.Field
            aria-label="Platform"
            value={platform}
            onChange={(e) => setPlatform(e.target.value)}
            data-testid="kpi-platform"
          >
            <option value="">All Platforms</option>
            {(platforms.data?.data ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>
      {(cb.isError || alerts.isError) && <Notice status="error">{KPI_ERROR}</Notice>}
      <Grid templateColumns={{ base: '1fr', xl: '1fr 1fr' }} gap="5">
        <ChartCard
          title="Chargebacks"
          loading={cb.isPending}
          empty={!cbRows.some((r) => r.chargebacks > 0 || r.transactions > 0)}
          testId="kpi-chargebacks"
        >
          <Line
            categories={cbRows.map((r) => r.month)}
            line={{ name: 'Result ratio', data: cbRows.map((r) => r.result_ratio) }}
            bars={{ name: 'Chargebacks', data: cbRows.map((r) => r.chargebacks) }}
          />
        </ChartCard>
        <ChartCard
          title="Alerts"
          loading={alerts.isPending}
          empty={!alertRows.some((r) => r.total > 0)}
          testId="kpi-alerts"
        >
          <Bar
            categories={alertRows.map((r) => r.month)}
            series={[
              { name: 'Alerts', data: alertRows.map((r) => r.alert_total) },
              { name: 'Chargebacks', data: alertRows.map((r) => r.chargeback_total) },
            ]}
          />
        </ChartCard>
      </Grid>
    </Stack>
  );
}

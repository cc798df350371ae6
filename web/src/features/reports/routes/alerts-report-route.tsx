import { Flex, Grid, Stack, Table } from '@chakra-ui/react';
import { lazy, useState } from 'react';
import { DateRangePicker } from '../../../components/date-range-picker';
import { PageHeader } from '../../../components/page-header';
import { lastDays, rangeParam } from '../../../lib/dates';
import { formatCount, formatMoney } from '../../../lib/format';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { useAlertsReport } from '../api/reports-api';
import { ChartCard } from '../components/chart-card';

const load = () => import('../charts/report-charts');
const Donut = lazy(() => load().then((m) => ({ default: m.DonutChart })));
const Bar = lazy(() => load().then((m) => ({ default: m.BarChart })));

const HEADERS = [
  'Source',
  'Alerts',
  'Resolved',
  'Already Chargeback',
  'Not Resolved',
  'Open',
  'Alert Amount',
  'Savings',
  'Resolve Rate',
];

/** /reports/alerts: alert outcomes and savings per source (issue 18). */
export default function AlertsReportRoute() {
  const merchantId = useSelectedMerchant()?.id;
  const [range, setRange] = useState(() => lastDays(30));
  const q = useAlertsReport({ merchant_id: merchantId, date_range: rangeParam(range) });
  const r = q.data;
  const sources = (r?.data ?? []).filter((s) => s.alerts > 0);
  return (
    <Stack gap="5" p={{ base: 3, md: 6 }} data-testid="alerts-report">
      <PageHeader title="Alerts Report" mb="0" />
      <Flex>
        <DateRangePicker value={range} onChange={setRange} testId="alerts-report-range" />
      </Flex>
      <Grid templateColumns={{ base: '1fr', xl: '1fr 1fr' }} gap="5">
        <ChartCard
          title="Alert Outcomes"
          loading={q.isPending}
          empty={q.isError || !r?.total.alerts}
          testId="alerts-outcomes"
        >
          {r && <Donut slices={r.outcomes.map((o) => ({ label: o.outcome, value: o.count }))} />}
        </ChartCard>
        <ChartCard
          title="Alerts and Savings by Source"
          loading={q.isPending}
          empty={q.isError || !sources.length}
          testId="alerts-sources"
        >
          <Bar
            categories={sources.map((s) => s.source)}
            series={[
              { name: 'Resolved', data: sources.map((s) => s.resolved) },
              { name: 'Already Chargeback', data: sources.map((s) => s.already_chargeback) },
              { name: 'Not Resolved', data: sources.map((s) => s.not_resolved) },
              { name: 'Open', data: sources.map((s) => s.open) },
            ]}
            stacked
          />
        </ChartCard>
      </Grid>
      {r && (
        <Table.Root size="sm" variant="outline" bg="white" data-testid="alerts-report-table">
          <Table.Header>
            <Table.Row>
              {HEADERS.map((h) => (
                <Table.ColumnHeader key={h}>{h}</Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {[...r.data, r.total].map((s) => (
              <Table.Row key={s.source} fontWeight={s === r.total ? 'semibold' : undefined}>
                <Table.Cell>{s.source}</Table.Cell>
                <Table.Cell>{formatCount(s.alerts)}</Table.Cell>
                <Table.Cell>{formatCount(s.resolved)}</Table.Cell>
                <Table.Cell>{formatCount(s.already_chargeback)}</Table.Cell>
                <Table.Cell>{formatCount(s.not_resolved)}</Table.Cell>
                <Table.Cell>{formatCount(s.open)}</Table.Cell>
                <Table.Cell>{formatMoney(s.alert_amount)}</Table.Cell>
                <Table.Cell>{formatMoney(s.savings)}</Table.Cell>
                <Table.Cell>{s.resolve_rate.toFixed(2)}%</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Stack>
  );
}

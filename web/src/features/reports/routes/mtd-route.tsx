import { Box, Grid, Stack, Stat, Text } from '@chakra-ui/react';
import { PageHeader } from '../../../components/page-header';
import { lazy } from 'react';
import { formatCount, formatMoney, formatPercent } from '../../../lib/format';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { useMtd } from '../api/reports-api';
import { ChartCard } from '../components/chart-card';

const load = () => import('../charts/report-charts');
const Line = lazy(() => load().then((m) => ({ default: m.LineChart })));

/** A metric's value as its kind reads: money, the chargeback ratio (already a percentage), or a count. */
const value = (m: { key: string; money: boolean }, v: number) =>
  m.money ? formatMoney(v) : m.key === 'ratio' ? formatPercent(v) : formatCount(v);

const change = (v: number | null) => (v === null ? '-' : `${v > 0 ? '+' : ''}${v.toFixed(2)}%`);

/** /mtd: this month to date against the same days of the previous month (issue 18). */
export default function MtdRoute() {
  const merchantId = useSelectedMerchant()?.id;
  const q = useMtd({ merchant_id: merchantId });
  const r = q.data;
  return (
    <Stack gap="5" p={{ base: 3, md: 6 }} data-testid="mtd">
      <PageHeader title="Month-to-Date" mb="0" />
      {r && (
        <Text color="fg.muted" fontSize="sm">
          {r.current.from} to {r.current.to} against {r.previous.from} to {r.previous.to}
        </Text>
      )}
      <Grid templateColumns={{ base: '1fr 1fr', lg: 'repeat(4, 1fr)' }} gap="4">
        {(r?.metrics ?? []).map((m) => (
          <Box key={m.key} bg="white" borderWidth="1px" borderRadius="lg" p="4" data-testid={`mtd-${m.key}`}>
            <Stat.Root>
              <Stat.Label>{m.label}</Stat.Label>
              <Stat.ValueText>{value(m, m.current)}</Stat.ValueText>
              {/* A dd: Chakra's HelpText is a span, which a dl may not hold. */}
              <Stat.HelpText as="dd">
                Previous {value(m, m.previous)} ({change(m.change)})
              </Stat.HelpText>
            </Stat.Root>
          </Box>
        ))}
      </Grid>
      <ChartCard
        title="Cumulative Chargebacks by Day of Month"
        loading={q.isPending}
        empty={q.isError || !r?.daily.some((d) => d.current > 0 || d.previous > 0)}
        testId="mtd-daily"
      >
        {r && (
          <Line
            categories={r.daily.map((d) => String(d.day))}
            line={{ name: 'This month', data: r.daily.map((d) => d.current) }}
            bars={{ name: 'Previous month', data: r.daily.map((d) => d.previous) }}
            percent={false}
          />
        )}
      </ChartCard>
    </Stack>
  );
}

import { Box, Grid, Stack, Stat, Text } from '@chakra-ui/react';
import type { MtdReport } from '@portal/contracts';
import { PageHeader } from '../../../components/page-header';
import { lazy } from 'react';
import { formatCount, formatMoney, formatPercent } from '../../../lib/format';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { useMtd } from '../api/reports-api';
import { ChartCard } from '../components/chart-card';

const load = () => import('../charts/report-charts');
const Line = lazy(() => load().then((m) => ({ default: m.LineChart })));

/**
 * A metric's value as its kind reads: money (in the report's currency, the tenant's reporting one), the
 * chargeback ratio (already a percentage), or a count.
 */
const value = (m: { key: string; money: boolean }, v: number, currency: string) =>
  m.money ? formatMoney(v, currency) : m.key === 'ratio' ? formatPercent(v) : formatCount(v);

/** What has no exchange rate to the reporting currency: counted, but left out of the amounts. */
function unratedNote(r: MtdReport): string | null {
  const { chargebacks, transactions } = r.unrated;
  const counts: [number, string][] = [
    [chargebacks.current, 'chargebacks this month'],
    [chargebacks.previous, 'chargebacks last month'],
    [transactions.current, 'transactions this month'],
    [transactions.previous, 'transactions last month'],
  ];
  const parts = counts.filter(([n]) => n > 0).map(([n, what]) => `${formatCount(n)} ${what}`);
  return parts.length === 0
    ? null
    : `Without an exchange rate to ${r.currency} (counted, not in the amounts): ${parts.join(', ')}.`;
}

const change = (v: number | null) => (v === null ? '-' : `${v > 0 ? '+' : ''}${v.toFixed(2)}%`);

/** /mtd: this month to date against the same days of the previous month (issue 18). */
export default function MtdRoute() {
  const merchantId = useSelectedMerchant()?.id;
  const q = useMtd({ merchant_id: merchantId });
  const r = q.data;
  const currency = r?.currency ?? 'USD';
  const unrated = r ? unratedNote(r) : null;
  return (
    <Stack gap="5" p={{ base: 3, md: 6 }} data-testid="mtd">
      <PageHeader title="Month-to-Date" mb="0" />
      {r && (
        <Text color="fg.muted" fontSize="sm">
          {r.current.from} to {r.current.to} against {r.previous.from} to {r.previous.to}; amounts in{' '}
          {r.currency}
        </Text>
      )}
      {unrated && (
        <Text color="fg.muted" fontSize="sm" data-testid="mtd-unrated">
          {unrated}
        </Text>
      )}
      <Grid templateColumns={{ base: '1fr 1fr', lg: 'repeat(4, 1fr)' }} gap="4">
        {(r?.metrics ?? []).map((m) => (
          <Box key={m.key} bg="white" borderWidth="1px" borderRadius="lg" p="4" data-testid={`mtd-${m.key}`}>
            <Stat.Root>
              <Stat.Label>{m.label}</Stat.Label>
              <Stat.ValueText>{value(m, m.current, currency)}</Stat.ValueText>
              {/* A dd: Chakra's HelpText is a span, which a dl may not hold. */}
              <Stat.HelpText as="dd">
                Previous {value(m, m.previous, currency)} ({change(m.change)})
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

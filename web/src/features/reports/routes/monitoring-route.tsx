import { Badge, Box, Flex, Grid, Heading, Input, Stack, Table, Text } from '@chakra-ui/react';
import { PageHeader } from '../../../components/page-header';
import { useState } from 'react';
import { formatCount } from '../../../lib/format';
import { useSelectedMerchant } from '../../../lib/merchant-selection';
import { useMonitoring } from '../api/reports-api';
import { NO_DATA } from '../charts/donut-rules';

const STATUS_COLOUR: Record<string, string> = { 'Above threshold': 'red', Warning: 'orange', OK: 'green' };
const thisMonth = () => new Date().toISOString().slice(0, 7);

/** /reports/monitoring: MIDs against Visa's and Mastercard's dispute monitoring thresholds (issue 18). */
export default function MonitoringRoute() {
  const merchantId = useSelectedMerchant()?.id;
  const [month, setMonth] = useState(thisMonth);
  const q = useMonitoring({ merchant_id: merchantId, month, limit: 200 });
  const r = q.data;
  return (
    <Stack gap="5" p={{ base: 3, md: 6 }} data-testid="monitoring">
      <PageHeader title="Monitoring" mb="0" />
      <Flex gap="3" align="center">
        <Text fontSize="sm" asChild>
          <label htmlFor="monitoring-month">Month</label>
        </Text>
        <Input
          id="monitoring-month"
          type="month"
          size="sm"
          w="auto"
          bg="white"
          max={thisMonth()}
          value={month}
          onChange={(e) => e.target.value && setMonth(e.target.value)}
          data-testid="monitoring-month"
        />
      </Flex>
      <Grid templateColumns={{ base: '1fr', lg: '1fr 1fr' }} gap="4">
        {(r?.programs ?? []).map((p) => (
          <Box
            key={p.network}
            bg="white"
            borderWidth="1px"
            borderRadius="lg"
            p="4"
            data-testid={`monitoring-${p.network}`}
          >
            <Heading size="sm">{p.program}</Heading>
            <Text fontSize="sm" color="fg.muted">
              Threshold {p.ratio_threshold}% and {p.count_threshold} disputes a month
            </Text>
            <Text mt="2" fontSize="2xl" fontWeight="semibold">
              {p.ratio.toFixed(2)}%
            </Text>
            <Text fontSize="sm">
              {formatCount(p.disputes)} disputes / {formatCount(p.transactions)} transactions · {p.above} MIDs
              above, {p.warning} warning
            </Text>
          </Box>
        ))}
      </Grid>
      {r && r.data.length === 0 ? (
        <Text color="fg.muted">{NO_DATA}</Text>
      ) : (
        <Table.Root size="sm" variant="outline" bg="white" data-testid="monitoring-table">
          <Table.Header>
            <Table.Row>
              {['Network', 'MID', 'Alias', 'Merchant', 'Disputes', 'Transactions', 'Ratio', 'Status'].map(
                (h) => (
                  <Table.ColumnHeader key={h}>{h}</Table.ColumnHeader>
                ),
              )}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(r?.data ?? []).map((m) => (
              <Table.Row key={`${m.network}-${m.mid_id}`} data-testid="monitoring-row">
                <Table.Cell>{m.network}</Table.Cell>
                <Table.Cell>{m.mid}</Table.Cell>
                <Table.Cell>{m.mid_alias ?? ''}</Table.Cell>
                <Table.Cell>{m.merchant}</Table.Cell>
                <Table.Cell>{formatCount(m.disputes)}</Table.Cell>
                <Table.Cell>{formatCount(m.transactions)}</Table.Cell>
                <Table.Cell>{m.ratio.toFixed(2)}%</Table.Cell>
                <Table.Cell>
                  <Badge colorPalette={STATUS_COLOUR[m.status]}>{m.status}</Badge>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Stack>
  );
}

import { Flex, Heading, NativeSelect, Table, Text } from '@chakra-ui/react';
import { WIN_RATE_GROUPS } from '@portal/contracts';
import { useState } from 'react';
import type { Params } from '../../../lib/api-client';
import { formatCount, formatMoney } from '../../../lib/format';
import { useWinRate } from '../api/reports-api';
import { NO_DATA } from '../charts/donut-rules';

const GROUP_LABELS: Record<(typeof WIN_RATE_GROUPS)[number], string> = {
  reason_code: 'Reason Code',
  card_type: 'Card Type',
  merchant: 'Merchant',
};

/**
 * Win rate and recovered amount by reason code, card type or merchant (issue 18). The amounts are the money
 * ledger's, in the tenant's reporting currency (the 'Recovered revenue' section's): the columns name it.
 */
export function WinRateTable({ params }: { params: Params }) {
  const [group, setGroup] = useState<(typeof WIN_RATE_GROUPS)[number]>('reason_code');
  const q = useWinRate({ ...params, group_by: group, limit: 10 });
  const rows = q.data?.data ?? [];
  const currency = q.data?.currency ?? 'USD';
  const unrated = rows.reduce((s, r) => s + r.unrated, 0);
  return (
    <Flex
      direction="column"
      gap="3"
      bg="white"
      borderRadius="lg"
      borderWidth="1px"
      p="4"
      data-testid="win-rate"
    >
      <Flex align="center" gap="3" wrap="wrap">
        <Heading size="sm" flex="1">
          Win Rate by {GROUP_LABELS[group]}
        </Heading>
        <NativeSelect.Root size="sm" w="auto">
          <NativeSelect.Field
            aria-label="Group win rate by"
            value={group}
            onChange={(e) => setGroup(e.target.value as typeof group)}
            data-testid="win-rate-group"
          >
            {WIN_RATE_GROUPS.map((g) => (
              <option key={g} value={g}>
                {GROUP_LABELS[g]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Flex>
      {!q.isPending && rows.length === 0 ? (
        <Text color="fg.muted">{NO_DATA}</Text>
      ) : (
        <Table.Root size="sm" variant="outline">
          <Table.Header>
            <Table.Row>
              {[
                GROUP_LABELS[group],
                'Chargebacks',
                'Won',
                'Lost',
                'Win Rate',
                `Disputed (${currency})`,
                `Recovered (${currency})`,
              ].map((h) => (
                <Table.ColumnHeader key={h}>{h}</Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((r) => (
              <Table.Row key={r.key} data-testid="win-rate-row">
                <Table.Cell>{r.label}</Table.Cell>
                <Table.Cell>{formatCount(r.chargebacks)}</Table.Cell>
                <Table.Cell>{formatCount(r.won)}</Table.Cell>
                <Table.Cell>{formatCount(r.lost)}</Table.Cell>
                <Table.Cell>{r.win_rate === null ? '-' : `${r.win_rate.toFixed(2)}%`}</Table.Cell>
                <Table.Cell>{formatMoney(r.disputed_amount, currency)}</Table.Cell>
                <Table.Cell>{formatMoney(r.recovered_amount, currency)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      {unrated > 0 && (
        <Text color="fg.muted" fontSize="sm" data-testid="win-rate-unrated">
          {formatCount(unrated)} {unrated === 1 ? 'chargeback has' : 'chargebacks have'} no exchange rate to{' '}
          {currency} for {unrated === 1 ? 'its' : 'their'} post date: counted, but not in the amounts.
        </Text>
      )}
    </Flex>
  );
}

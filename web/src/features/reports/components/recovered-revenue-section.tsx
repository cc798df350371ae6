import { Button, Flex, Heading, NativeSelect, Table, Text } from '@chakra-ui/react';
import {
  RECOVERED_REVENUE_COLUMNS,
  RECOVERED_REVENUE_GROUPS,
  type RecoveredRevenueGroup,
  type RecoveredRevenueRow,
} from '@portal/contracts';
import { useState } from 'react';
import { toaster } from '../../../components/toaster';
import type { Params } from '../../../lib/api-client';
import { queryErrorMessage } from '../../../lib/errors';
import { formatCount, formatMoney } from '../../../lib/format';
import { downloadReportCsv, useRecoveredRevenue } from '../api/reports-api';
import { NO_DATA } from '../charts/donut-rules';

const GROUP_LABELS: Record<RecoveredRevenueGroup, string> = {
  month: 'Month',
  reason_code: 'Reason Code',
  mid: 'MID',
};
const MONEY_COLUMNS = new Set(['recovered', 'lost', 'fees', 'net']);

/**
 * 'Recovered revenue' (issue 33): recovered, lost and fees by month, reason code or MID in the tenant's
 * reporting currency, with the page's filters; the CSV has every row of the grouping.
 */
export function RecoveredRevenueSection({ params }: { params: Params }) {
  const [group, setGroup] = useState<RecoveredRevenueGroup>('month');
  const query = { ...params, group_by: group };
  const q = useRecoveredRevenue(query);
  const rows = q.data?.data ?? [];
  const currency = q.data?.currency ?? 'USD';
  const cell = (r: RecoveredRevenueRow, key: (typeof RECOVERED_REVENUE_COLUMNS)[number]['accessor']) =>
    key === 'label'
      ? r.label
      : MONEY_COLUMNS.has(key)
        ? formatMoney(r[key] as number, currency)
        : formatCount(r[key] as number);
  const exportCsv = () =>
    downloadReportCsv('recovered-revenue', query).catch((e: unknown) =>
      toaster.error({ title: queryErrorMessage(e) }),
    );
  return (
    <Flex
      id="recovered-revenue"
      direction="column"
      gap="3"
      bg="white"
      borderRadius="lg"
      borderWidth="1px"
      p="4"
      data-testid="recovered-revenue"
    >
      <Flex align="center" gap="3" wrap="wrap">
        <Heading size="sm" flex="1">
          Recovered Revenue by {GROUP_LABELS[group]} ({currency})
        </Heading>
        <NativeSelect.Root size="sm" w="auto">
          <NativeSelect.Field
            aria-label="Group recovered revenue by"
            value={group}
            onChange={(e) => setGroup(e.target.value as RecoveredRevenueGroup)}
            data-testid="recovered-revenue-group"
          >
            {RECOVERED_REVENUE_GROUPS.map((g) => (
              <option key={g} value={g}>
                {GROUP_LABELS[g]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Button size="sm" variant="outline" onClick={exportCsv} data-testid="recovered-revenue-csv">
          CSV
        </Button>
      </Flex>
      {q.isError ? (
        <Text color="red.600">{queryErrorMessage(q.error)}</Text>
      ) : !q.isPending && rows.length === 0 ? (
        <Text color="fg.muted">{NO_DATA}</Text>
      ) : (
        <Table.Root size="sm" variant="outline">
          <Table.Header>
            <Table.Row>
              {RECOVERED_REVENUE_COLUMNS.map((c) => (
                <Table.ColumnHeader key={c.accessor}>
                  {c.accessor === 'label' ? GROUP_LABELS[group] : c.label}
                </Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((r) => (
              <Table.Row key={r.key} data-testid="recovered-revenue-row">
                {RECOVERED_REVENUE_COLUMNS.map((c) => (
                  <Table.Cell key={c.accessor}>{cell(r, c.accessor)}</Table.Cell>
                ))}
              </Table.Row>
            ))}
            {q.data && (
              <Table.Row fontWeight="semibold" data-testid="recovered-revenue-total">
                {RECOVERED_REVENUE_COLUMNS.map((c) => (
                  <Table.Cell key={c.accessor}>
                    {c.accessor === 'label'
                      ? 'Total'
                      : cell({ ...q.data.total, key: '', label: '' }, c.accessor)}
                  </Table.Cell>
                ))}
              </Table.Row>
            )}
          </Table.Body>
        </Table.Root>
      )}
      {q.data && q.data.groups > rows.length && (
        <Text fontSize="sm" color="fg.muted" data-testid="recovered-revenue-cut">
          The {rows.length} with the most recovered of {q.data.groups.toLocaleString('en-US')}; the total
          counts them all, and the CSV lists them all.
        </Text>
      )}
      <Text fontSize="xs" color="fg.muted">
        Net recovered = recovered - dispute fees (network, processor and arbitration fees of the tenant
        configuration). Months are post-date months; cases without an exchange rate are counted under
        &lsquo;Without Rate&rsquo; and left out of the sums.
      </Text>
    </Flex>
  );
}

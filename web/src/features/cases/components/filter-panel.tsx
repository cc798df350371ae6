import { Box, Button, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useCaseCount } from '../api/get-case-count';
import type { CaseQuery } from '../api/get-cases';
import { MSG } from '../lib/case-messages';

/** One filter of the panel: its tab title, row label and query. */
export interface PanelFilter {
  key: string;
  title: string;
  label: string;
  query: CaseQuery;
}

export const DEFAULT_EXPIRE_DAYS = 7;

export function panelFilters(days: number): PanelFilter[] {
  return [
    { key: 'rfi', title: 'Retrievals (RFIs)', label: 'Retrievals Request', query: { cycle: '9' } },
    { key: 'primary', title: 'Primary Cycle', label: 'First Chargeback', query: { cycle: '1' } },
    { key: 'secondary', title: 'Secondary Cycle', label: 'Second Chargeback', query: { cycle: '2' } },
    {
      key: 'fraud',
      title: 'Primary Fraud',
      label: 'First Chargeback fraud',
      query: { cycle: '1', is_fraud: 1 },
    },
    {
      key: 'non-fraud',
      title: 'Primary Non-Fraud',
      label: 'First Chargeback non-fraud',
      query: { cycle: '1', is_fraud: 0 },
    },
    {
      key: 'expire',
      title: 'Primary Cases Due to Expire in',
      label: `Primary Cases Due to Expire in ${days} day(s)`,
      query: { filter_group: 'primary_case_expire', primary_case_due_days: days },
    },
  ];
}

function CountCell({ query }: { query: CaseQuery }) {
  const count = useCaseCount(query);
  return <>{count.isSuccess ? count.data.toLocaleString('en-US') : count.isError ? '—' : '…'}</>;
}

/**
 * The filter panel (spec 2 §2.2): counts per row, the chosen filter, the
 * expire-days input (non-zero, default 7), Reset and Close.
 */
export function FilterPanel({
  base,
  active,
  days,
  onDays,
  onChoose,
  onReset,
  onClose,
}: {
  base: CaseQuery;
  active: string | null;
  days: number;
  onDays: (d: number) => void;
  onChoose: (f: PanelFilter) => void;
  onReset: () => void;
  onClose: () => void;
}) {
  const [text, setText] = useState(String(days));
  const [error, setError] = useState<string | null>(null);
  const filters = panelFilters(days);
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" bg="white" data-testid="filter-panel">
      <Table.Root size="sm" variant="line">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Filter</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Cases</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {filters.map((f) => (
            <Table.Row
              key={f.key}
              cursor="pointer"
              bg={active === f.key ? 'brand.subtle' : undefined}
              onClick={() => onChoose(f)}
              data-testid={`panel-${f.key}`}
            >
              <Table.Cell>
                {f.key === 'expire' ? (
                  <HStack>
                    <Text>Primary Cases Due to Expire in</Text>
                    <Input
                      size="xs"
                      width="14"
                      aria-label="Expire days"
                      value={text}
                      onClick={(e) => e.stopPropagation()}
                      onChange={(e) => {
                        setText(e.target.value);
                        const n = Number(e.target.value);
                        if (!e.target.value.trim() || !Number.isInteger(n) || n === 0) {
                          setError(MSG.expireZero);
                          return;
                        }
                        if (n < 1 || n > 365) return setError('Enter a number of days from 1 to 365.');
                        setError(null);
                        onDays(n);
                      }}
                    />
                    <Text>day(s)</Text>
                  </HStack>
                ) : (
                  f.label
                )}
              </Table.Cell>
              <Table.Cell textAlign="end" data-testid={`count-${f.key}`}>
                <CountCell query={{ ...base, ...f.query }} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
      {error && (
        <Text color="red.600" fontSize="sm" mt="2" role="alert">
          {error}
        </Text>
      )}
      <Stack direction="row" justify="flex-end" mt="3">
        <Button size="sm" variant="outline" onClick={onReset}>
          Reset
        </Button>
        <Button size="sm" onClick={onClose}>
          Close
        </Button>
      </Stack>
    </Box>
  );
}

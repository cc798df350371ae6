import { Box, Button, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useCaseCount } from '../api/get-case-count';
import type { CaseQuery } from '../api/get-cases';
import { MSG } from '../../../lib/case-messages';
import { panelFilters, type PanelFilter, type PanelKey } from '../lib/panel-filters';

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
  active: PanelKey | null;
  days: number;
  onDays: (d: number) => void;
  onChoose: (f: PanelFilter) => void;
  onReset: () => void;
  onClose: () => void;
}) {
  const [text, setText] = useState(String(days));
  const [error, setError] = useState<string | null>(null);
  // Days changed from outside (Back, a saved view): the input shows them.
  const [shownDays, setShownDays] = useState(days);
  if (shownDays !== days) {
    setShownDays(days);
    if (Number(text) !== days) {
      setText(String(days));
      setError(null);
    }
  }
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

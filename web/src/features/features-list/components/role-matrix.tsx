import { Box, Icon, Table } from '@chakra-ui/react';
import type { FeatureCatalogue } from '@portal/contracts';
import { Check, Minus } from 'lucide-react';

type Role = FeatureCatalogue['roles'][number];
export interface MatrixRow {
  id: number;
  alias: string;
  name: string;
}

/** Rows (features or site permissions) against the roles: a check where the role holds the row. */
export function RoleMatrix({
  rows,
  roles,
  held,
  testId,
}: {
  rows: readonly MatrixRow[];
  roles: readonly Role[];
  held: (role: Role) => readonly number[];
  testId: string;
}) {
  const sets = new Map(roles.map((r) => [r.id, new Set(held(r))]));
  return (
    <Box overflowX="auto" borderWidth="1px" borderRadius="md" bg="white">
      <Table.Root size="sm" data-testid={testId} stickyHeader>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader minW="56">Name</Table.ColumnHeader>
            {roles.map((r) => (
              <Table.ColumnHeader key={r.id} textAlign="center" whiteSpace="nowrap">
                {r.label}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <Table.Row key={row.id} data-alias={row.alias}>
              <Table.Cell>
                {row.name}
                <Box as="span" color="fg.muted" fontSize="xs" ms="2">
                  {row.alias}
                </Box>
              </Table.Cell>
              {roles.map((r) => {
                const on = sets.get(r.id)!.has(row.id);
                return (
                  <Table.Cell
                    key={r.id}
                    textAlign="center"
                    color={on ? 'green.600' : 'fg.subtle'}
                    aria-label={`${r.label}: ${on ? 'on' : 'off'}`}
                    data-role={r.name}
                    data-on={on}
                  >
                    <Icon size="sm">{on ? <Check /> : <Minus />}</Icon>
                  </Table.Cell>
                );
              })}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}

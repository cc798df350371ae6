import { Box, Button, Checkbox, Flex, Heading, HStack, Spinner, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { PageSizeSelect } from '../../../components/page-size-select';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { useLoginHistory, useSetIpLocked, type LoginEventItem } from '../api/login-history';
import { PROFILE_TEXT } from '../api/profile-messages';

const PAGE_SIZES = [5, 10, 25, 50, 100] as const;

/** Login History (spec 3 §2 Profile): ipAddress, date, locked; Lock/Unlock per IP; unique logins. */
export function LoginHistory() {
  const me = useProfile();
  const [unique, setUnique] = useState(false);
  const [limit, setLimit] = useState(25);
  const [start, setStart] = useState(0);
  const q = useLoginHistory({ userId: me.id, unique, start, limit });
  const setLocked = useSetIpLocked();
  const rows = q.data?.data ?? [];
  const total = q.data?.pagination.total ?? 0;

  function toggle(r: LoginEventItem) {
    const lock = !r.is_blocked;
    setLocked.mutate(
      { ip: r.ip, lock, blockId: r.blocked_id },
      {
        onError: () =>
          toaster.create({
            type: 'error',
            title: lock ? PROFILE_TEXT.ipLockFailed : PROFILE_TEXT.ipUnlockFailed,
          }),
      },
    );
  }

  return (
    <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 3, md: 5 }} data-testid="login-history">
      <Flex align="center" mb="3" gap="3">
        <Heading size="md" flex="1">
          Login History
        </Heading>
        <Checkbox.Root
          checked={unique}
          onCheckedChange={(e) => {
            setUnique(e.checked === true);
            setStart(0);
          }}
          data-testid="unique-logins"
        >
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>Unique logins</Checkbox.Label>
        </Checkbox.Root>
      </Flex>
      {q.isLoading ? (
        <Spinner />
      ) : !rows.length ? (
        <Text color="gray.600">No Records Found!</Text>
      ) : (
        <Table.Root size="sm" variant="line">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>IP Address</Table.ColumnHeader>
              <Table.ColumnHeader>Date</Table.ColumnHeader>
              <Table.ColumnHeader>Locked</Table.ColumnHeader>
              <Table.ColumnHeader />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((r) => (
              <Table.Row key={r.id} data-testid="login-row" data-ip={r.ip}>
                <Table.Cell>{r.ip}</Table.Cell>
                <Table.Cell>{new Date(r.timestamp).toLocaleString('en-US')}</Table.Cell>
                <Table.Cell data-testid="ip-locked">{r.is_blocked ? 'Yes' : 'No'}</Table.Cell>
                <Table.Cell>
                  <Button
                    size="xs"
                    variant="outline"
                    colorPalette={r.is_blocked ? 'green' : 'red'}
                    disabled={me.is_read_only || setLocked.isPending}
                    onClick={() => toggle(r)}
                    data-testid="ip-lock-toggle"
                  >
                    {r.is_blocked ? 'Unlock' : 'Lock'}
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      <HStack justify="space-between" mt="3" wrap="wrap" gap="2">
        <PageSizeSelect
          sizes={PAGE_SIZES}
          value={limit}
          onChange={(n) => {
            setLimit(n);
            setStart(0);
          }}
          label="Rows per page"
          ariaLabel="Login history rows per page"
        />
        <HStack>
          <Text fontSize="sm">
            {total ? `${start + 1}-${Math.min(start + limit, total)} of ${total}` : '0 of 0'}
          </Text>
          <Button
            size="xs"
            variant="outline"
            disabled={start === 0}
            onClick={() => setStart(Math.max(0, start - limit))}
          >
            Previous
          </Button>
          <Button
            size="xs"
            variant="outline"
            disabled={start + limit >= total}
            onClick={() => setStart(start + limit)}
          >
            Next
          </Button>
        </HStack>
      </HStack>
    </Box>
  );
}

import { Box, Button, Checkbox, Flex, Heading, Spinner, Table, Text } from '@chakra-ui/react';
import type { LoginEvent } from '@portal/contracts';
import { useState } from 'react';
import { Pager, usePaging } from '../../../components/pager';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { useLoginHistory, useSetIpLocked } from '../api/login-history';
import { PROFILE_TEXT } from '../api/profile-messages';

const PAGE_SIZES = [5, 10, 25, 50, 100] as const;

/** Login History (spec 3 §2 Profile): ipAddress, date, locked; Lock/Unlock per IP; unique logins. */
export function LoginHistory() {
  const me = useProfile();
  const [unique, setUnique] = useState(false);
  const paging = usePaging(25);
  const q = useLoginHistory({ userId: me.id, unique, start: paging.start, limit: paging.pageSize });
  const setLocked = useSetIpLocked();
  const rows = q.data?.data ?? [];
  const total = q.data?.pagination.total ?? 0;

  function toggle(r: LoginEvent) {
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
            paging.onStart(0);
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
      <Pager
        {...paging}
        total={total}
        sizes={PAGE_SIZES}
        sizeAriaLabel="Login history rows per page"
        mt="3"
      />
    </Box>
  );
}

import { Badge, Flex, Heading, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Pager } from '../../../components/pager';
import { ApiError, queryErrorMessage } from '../../../lib/errors';
import { MERCHANT_USERS_PAGE, useMerchantUsers } from '../api/merchant-admin-api';
import { MA_TEXT } from '../lib/texts';

/** The users of the selected merchant beside the tree and the MIDs (spec 3 §2), pages of 10. */
export function MerchantUsersGrid({ merchantId }: { merchantId: number }) {
  const [page, setPage] = useState({ merchantId, start: 0 });
  // A new merchant starts at its first page.
  const start = page.merchantId === merchantId ? page.start : 0;
  const users = useMerchantUsers(merchantId, start);
  const total = users.data?.pagination.total ?? 0;
  const go = (next: number) => setPage({ merchantId, start: next });
  return (
    <Flex direction="column" gap="2" data-testid="merchant-users">
      <Heading size="md">Users</Heading>
      {users.isError ? (
        <Text color="fg.muted">
          {users.error instanceof ApiError && users.error.status === 403
            ? MA_TEXT.notAvailable
            : queryErrorMessage(users.error)}
        </Text>
      ) : (
        <>
          <Table.Root size="sm" variant="outline">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Username</Table.ColumnHeader>
                <Table.ColumnHeader>Name</Table.ColumnHeader>
                <Table.ColumnHeader>Email</Table.ColumnHeader>
                <Table.ColumnHeader>Role</Table.ColumnHeader>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {(users.data?.data ?? []).map((u) => (
                <Table.Row key={u.id}>
                  <Table.Cell>{u.username}</Table.Cell>
                  <Table.Cell>{`${u.fname} ${u.lname}`}</Table.Cell>
                  <Table.Cell>{u.email}</Table.Cell>
                  <Table.Cell>{u.role.name}</Table.Cell>
                  <Table.Cell>
                    <Badge colorPalette={u.status.id === 1 ? 'green' : 'gray'}>{u.status.name}</Badge>
                  </Table.Cell>
                </Table.Row>
              ))}
              {users.isSuccess && !users.data.data.length && (
                <Table.Row>
                  <Table.Cell colSpan={5}>No Records Found!</Table.Cell>
                </Table.Row>
              )}
            </Table.Body>
          </Table.Root>
          {total > MERCHANT_USERS_PAGE && (
            <Pager start={start} pageSize={MERCHANT_USERS_PAGE} total={total} onStart={go} />
          )}
        </>
      )}
    </Flex>
  );
}

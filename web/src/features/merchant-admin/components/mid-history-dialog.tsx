import { Button, CloseButton, Dialog, Flex, NativeSelect, Portal, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Notice } from '../../../components/notice';
import { queryErrorMessage } from '../../../lib/errors';
import { useMidHistory } from '../api/merchant-admin-api';

const SIZES = [5, 10, 25];

/** MID History (spec 3 §2): username, date_created, field, old_value, new_value; page size 5. */
export function MidHistoryDialog({
  midId,
  open,
  onClose,
}: {
  midId: number;
  open: boolean;
  onClose: () => void;
}) {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(5);
  const history = useMidHistory(midId, page * size, size, open);
  const total = history.data?.pagination.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / size));
  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && onClose()} size="xl" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="mid-history-dialog">
            <Dialog.Header>
              <Dialog.Title>MID History</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {history.isError ? (
                <Notice status="error">{queryErrorMessage(history.error)}</Notice>
              ) : (
                <Table.Root size="sm" variant="outline">
                  <Table.Header>
                    <Table.Row>
                      {['Username', 'Date Created', 'Field', 'Old Value', 'New Value'].map((h) => (
                        <Table.ColumnHeader key={h}>{h}</Table.ColumnHeader>
                      ))}
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {(history.data?.data ?? []).map((r) => (
                      <Table.Row key={r.id} data-testid="mid-history-row">
                        <Table.Cell>{r.username}</Table.Cell>
                        <Table.Cell>{new Date(r.date_created).toLocaleString('en-US')}</Table.Cell>
                        <Table.Cell>{r.field}</Table.Cell>
                        <Table.Cell>{r.old_value ?? ''}</Table.Cell>
                        <Table.Cell>{r.new_value ?? ''}</Table.Cell>
                      </Table.Row>
                    ))}
                    {history.data && total === 0 && (
                      <Table.Row>
                        <Table.Cell colSpan={5}>No Records Found!</Table.Cell>
                      </Table.Row>
                    )}
                  </Table.Body>
                </Table.Root>
              )}
              <Flex mt="3" gap="3" align="center" justify="flex-end">
                <NativeSelect.Root size="sm" width="80px">
                  <NativeSelect.Field
                    aria-label="Rows per page"
                    value={size}
                    onChange={(e) => {
                      setSize(Number(e.target.value));
                      setPage(0);
                    }}
                  >
                    {SIZES.map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
                <Text fontSize="sm">
                  Page {page + 1} of {pages}
                </Text>
                <Button size="xs" variant="outline" disabled={page === 0} onClick={() => setPage(page - 1)}>
                  Previous
                </Button>
                <Button
                  size="xs"
                  variant="outline"
                  disabled={page + 1 >= pages}
                  onClick={() => setPage(page + 1)}
                >
                  Next
                </Button>
              </Flex>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                Close History
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

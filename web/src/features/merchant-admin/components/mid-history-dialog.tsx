import { Button, Table } from '@chakra-ui/react';
import { DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { Pager, usePaging } from '../../../components/pager';
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
  const paging = usePaging(5);
  const history = useMidHistory(midId, paging.start, paging.pageSize, open);
  const total = history.data?.pagination.total ?? 0;
  return (
    <DialogFrame
      title="MID History"
      testId="mid-history-dialog"
      onClose={onClose}
      open={open}
      size="xl"
      placement="top"
      footer={
        <Button variant="outline" onClick={onClose}>
          Close History
        </Button>
      }
    >
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
      <Pager {...paging} total={total} sizes={SIZES} mt="3" />
    </DialogFrame>
  );
}

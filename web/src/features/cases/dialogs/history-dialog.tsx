import { PageSizeSelect } from '../../../components/page-size-select';
import type { CaseRow } from '@portal/contracts';
import { Button, CloseButton, Dialog, HStack, Portal, Spinner, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useCaseHistory } from '../api/get-case-history';
import { useFinalFocus } from '../../../components/dialog-focus';

const PAGE_SIZES = [5, 10];

function stamp(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString('en-US');
}

/**
 * The case history grid of the modal and the popover (spec 2 §2.3):
 * Timestamp, Username, Action; pages of 5 (default) or 10; double-clicking a
 * user or action cell toggles wrapping of the long texts.
 */
export function CaseHistoryGrid({ caseId }: { caseId: number }) {
  const [limit, setLimit] = useState(5);
  const [start, setStart] = useState(0);
  const [wrap, setWrap] = useState(false);
  const history = useCaseHistory(caseId, start, limit);
  const total = history.data?.pagination.total ?? 0;
  const cellWrap = {
    whiteSpace: wrap ? 'normal' : 'nowrap',
    maxW: '360px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    onDoubleClick: () => setWrap((w) => !w),
    'data-wrap': wrap ? 'on' : 'off',
  } as const;
  return (
    <>
      {history.isPending ? (
        <Spinner />
      ) : (
        <Table.Root size="sm" variant="outline" data-testid="history-grid">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Timestamp</Table.ColumnHeader>
              <Table.ColumnHeader>Username</Table.ColumnHeader>
              <Table.ColumnHeader>Action</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(history.data?.data ?? []).map((h) => (
              <Table.Row key={h.id}>
                <Table.Cell whiteSpace="nowrap">{stamp(h.timestamp)}</Table.Cell>
                <Table.Cell {...cellWrap}>
                  {h.actor_username && h.actor_username !== h.user
                    ? `${h.user} (by ${h.actor_username})`
                    : h.user}
                </Table.Cell>
                <Table.Cell {...cellWrap}>{h.action}</Table.Cell>
              </Table.Row>
            ))}
            {history.isSuccess && !history.data.data.length && (
              <Table.Row>
                <Table.Cell colSpan={3}>No Records Found!</Table.Cell>
              </Table.Row>
            )}
          </Table.Body>
        </Table.Root>
      )}
      <HStack mt="3" justify="space-between">
        <PageSizeSelect
          sizes={PAGE_SIZES}
          value={limit}
          onChange={(size) => {
            setLimit(size);
            setStart(0);
          }}
          label="Rows"
          ariaLabel="History page size"
          size="xs"
        />
        <HStack>
          <Text fontSize="sm" data-testid="history-range">
            {total ? `${start + 1}-${Math.min(start + limit, total)} of ${total}` : '0 of 0'}
          </Text>
          <Button size="xs" variant="outline" disabled={start === 0} onClick={() => setStart(start - limit)}>
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
    </>
  );
}

/** The modal 'Case History (Case No: ...)' of the classic lists (spec 2 §2.3). */
export function HistoryDialog({ row, onClose }: { row: CaseRow; onClose: () => void }) {
  // Opened from the row's Case Menu: focus goes back to it.
  const finalFocus = useFinalFocus();
  return (
    <Dialog.Root
      open
      onOpenChange={(e) => !e.open && onClose()}
      size="xl"
      placement="center"
      finalFocusEl={finalFocus}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="history-dialog">
            <Dialog.Header>
              <Dialog.Title>Case History (Case No: {row.case_no})</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <CaseHistoryGrid caseId={row.id} />
            </Dialog.Body>
            <Dialog.Footer>
              <Button onClick={onClose}>Close History</Button>
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

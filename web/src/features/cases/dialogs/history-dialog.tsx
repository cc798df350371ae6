import type { CaseRow } from '@portal/contracts';
import { Button, Spinner, Table } from '@chakra-ui/react';
import { useState } from 'react';
import { DialogFrame } from '../../../components/dialog-frame';
import { Pager, usePaging } from '../../../components/pager';
import { useCaseHistory } from '../api/get-case-history';

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
  const paging = usePaging(5);
  const [wrap, setWrap] = useState(false);
  const history = useCaseHistory(caseId, paging.start, paging.pageSize);
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
      <Pager
        {...paging}
        total={total}
        sizes={PAGE_SIZES}
        sizeLabel="Rows"
        sizeAriaLabel="History page size"
        sizeSelect="xs"
        rangeTestId="history-range"
        mt="3"
      />
    </>
  );
}

/** The modal 'Case History (Case No: ...)' of the classic lists (spec 2 §2.3). */
export function HistoryDialog({ row, onClose }: { row: CaseRow; onClose: () => void }) {
  // Opened from the row's Case Menu: focus goes back to it (DialogFrame's useFinalFocus).
  return (
    <DialogFrame
      title={<>Case History (Case No: {row.case_no})</>}
      testId="history-dialog"
      onClose={onClose}
      size="xl"
      footer={<Button onClick={onClose}>Close History</Button>}
    >
      <CaseHistoryGrid caseId={row.id} />
    </DialogFrame>
  );
}

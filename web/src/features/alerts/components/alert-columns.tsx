import { Button, HStack, Text } from '@chakra-ui/react';
import { ALERT_SERVICE_LEVEL, type AlertRow } from '@portal/contracts';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { formatNumber } from '../../../lib/format';
import { ALERT_MESSAGES } from '../lib/alert-messages';
import { formatDate, formatDateTime } from '../lib/alert-format';

export interface AlertActions {
  readOnly: boolean;
  onMark: (a: AlertRow) => void;
  onComplete: (a: AlertRow) => void;
  onHistory: (a: AlertRow) => void;
  onSelectMid: (a: AlertRow) => void;
}

type Col = ColDef<AlertRow>;
type Cell = ICellRendererParams<AlertRow>;

function MidCell({ row, actions, self }: { row: AlertRow; actions: AlertActions; self: boolean }) {
  if (row.mid) return <>{row.mid}</>;
  if (!self) return null;
  // Read-only users see the link as disabled text (spec 2 §2.11).
  if (actions.readOnly)
    return (
      <Text as="span" color="fg.subtle" data-testid="select-mid-disabled">
        {ALERT_MESSAGES.selectMid}
      </Text>
    );
  return (
    <Button
      variant="plain"
      size="xs"
      color="brand.solid"
      textDecoration="underline"
      px="0"
      onClick={() => actions.onSelectMid(row)}
      data-testid={`select-mid-${row.alert_id}`}
    >
      {ALERT_MESSAGES.selectMid}
    </Button>
  );
}

function ActionsCell({ row, actions }: { row: AlertRow; actions: AlertActions }) {
  const history = (
    <Button
      size="xs"
      variant="ghost"
      onClick={() => actions.onHistory(row)}
      data-testid={`history-${row.alert_id}`}
    >
      History
    </Button>
  );
  if (row.completed)
    return (
      <HStack gap="1">
        <Text as="span" fontSize="xs" color="fg.muted" data-testid={`completed-${row.alert_id}`}>
          {ALERT_MESSAGES.alreadyCompleted}
        </Text>
        {history}
      </HStack>
    );
  return (
    <HStack gap="1">
      <Button
        size="xs"
        variant="outline"
        disabled={actions.readOnly}
        onClick={() => actions.onMark(row)}
        data-testid={`mark-${row.alert_id}`}
      >
        {row.outcome_id ? 'Edit' : 'Mark Outcome'}
      </Button>
      <Button
        size="xs"
        variant="outline"
        colorPalette="green"
        disabled={actions.readOnly || !row.outcome_id}
        onClick={() => actions.onComplete(row)}
        data-testid={`complete-${row.alert_id}`}
      >
        {/* Not 'Complete': that is the Mark Outcome dialog's button (spec 2 §5); this one is final. */}
        Confirm Completion
      </Button>
      {history}
    </HStack>
  );
}

/**
 * The alerts grid columns (spec 2 §2.11): the basic set, plus Status, Select
 * MID, Expiration Date, Completed By and Actions at service level 2 (Self).
 */
export function alertColumns(serviceLevel: number, actions: AlertActions): Col[] {
  const self = serviceLevel === ALERT_SERVICE_LEVEL.Self;
  const cols: Col[] = [
    { headerName: 'Account', field: 'account', minWidth: 160 },
    { headerName: 'Alert ID', field: 'alert_id', colId: 'alert_id', minWidth: 120 },
    { headerName: 'Source', field: 'source', minWidth: 110 },
    { headerName: 'Order ID', field: 'order_id', minWidth: 120 },
    {
      headerName: 'Trans Amt',
      field: 'trans_amount',
      minWidth: 100,
      valueFormatter: (p) => (p.value == null ? '' : formatNumber(p.value as number, 2)),
      type: 'rightAligned',
    },
    { headerName: 'Currency', field: 'currency', minWidth: 90 },
    {
      headerName: 'Trans. Date',
      field: 'trans_date',
      minWidth: 110,
      valueFormatter: (p) => formatDate(p.value),
    },
    { headerName: 'CC #', field: 'cc_num', colId: 'cc_num', minWidth: 150 },
    { headerName: 'CC Type', field: 'cc_type', minWidth: 110 },
    { headerName: 'Descriptor', field: 'descriptor', minWidth: 190 },
    {
      headerName: 'MID',
      field: 'mid',
      minWidth: 150,
      cellRenderer: (p: Cell) => (p.data ? <MidCell row={p.data} actions={actions} self={self} /> : null),
    },
    {
      headerName: 'Alert Date',
      field: 'alert_date',
      minWidth: 150,
      valueFormatter: (p) => formatDateTime(p.value),
    },
  ];
  if (self)
    cols.push(
      { headerName: 'Status', field: 'status', minWidth: 100 },
      {
        headerName: 'Expiration Date',
        field: 'expiration_date',
        minWidth: 150,
        valueFormatter: (p) => formatDateTime(p.value),
      },
      { headerName: 'Completed By', field: 'completed_by', minWidth: 130 },
    );
  cols.push({ headerName: 'Outcome', field: 'outcome', minWidth: 150, pinned: 'right' });
  if (self)
    cols.push({
      headerName: 'Actions',
      colId: 'actions',
      sortable: false,
      pinned: 'right',
      minWidth: 360,
      cellRenderer: (p: Cell) => (p.data ? <ActionsCell row={p.data} actions={actions} /> : null),
    });
  return cols;
}

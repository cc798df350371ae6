import { Flex, Spinner, Table, Text } from '@chakra-ui/react';
import { useAlertHistory } from '../api/get-alert-history';
import { ALERT_MESSAGES } from '../lib/alert-messages';
import { formatDateTime } from '../lib/alert-format';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';

/** View Alert History: date, user, old and new outcome of every change. */
export function AlertHistoryDialog({
  alertId,
  merchantId,
  onClose,
}: {
  alertId: number;
  merchantId: number | undefined;
  onClose: () => void;
}) {
  const history = useAlertHistory(alertId, merchantId);
  const rows = history.data?.data ?? [];
  return (
    <DialogFrame
      title="View Alert History"
      testId="alert-history-dialog"
      onClose={onClose}
      size="lg"
      footer={<DialogActions onCancel={onClose} cancelLabel="Close" />}
    >
      {history.isLoading ? (
        <Flex justify="center" p="4">
          <Spinner />
        </Flex>
      ) : !rows.length ? (
        <Text data-testid="alert-history-empty">{ALERT_MESSAGES.noHistory(alertId)}</Text>
      ) : (
        <Table.Root size="sm" data-testid="alert-history-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Date</Table.ColumnHeader>
              <Table.ColumnHeader>Username</Table.ColumnHeader>
              <Table.ColumnHeader>Action</Table.ColumnHeader>
              <Table.ColumnHeader>Old Outcome</Table.ColumnHeader>
              <Table.ColumnHeader>New Outcome</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((h) => (
              <Table.Row key={h.id}>
                <Table.Cell>{formatDateTime(h.date)}</Table.Cell>
                <Table.Cell>{h.username ?? ''}</Table.Cell>
                <Table.Cell>{h.action}</Table.Cell>
                <Table.Cell>{h.old_outcome_name ?? ''}</Table.Cell>
                <Table.Cell>{h.new_outcome_name ?? ''}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </DialogFrame>
  );
}

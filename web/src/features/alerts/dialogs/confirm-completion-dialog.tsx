import { Button, Text } from '@chakra-ui/react';
import type { AlertRow } from '@portal/contracts';
import { DialogFrame } from '../../../components/dialog-frame';

/** Confirm Completion: completing is final (spec 2 §4). */
export function ConfirmCompletionDialog({
  alert,
  busy,
  onConfirm,
  onClose,
}: {
  alert: AlertRow;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <DialogFrame
      title="Confirm Completion"
      testId="confirm-completion-dialog"
      onClose={onClose}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button colorPalette="brand" loading={busy} onClick={onConfirm} data-testid="confirm-completion">
            Confirm
          </Button>
        </>
      }
    >
      <Text>{`Complete alert record ${alert.alert_id} with the outcome '${alert.outcome ?? ''}'? A completed alert can no longer be changed.`}</Text>
    </DialogFrame>
  );
}
